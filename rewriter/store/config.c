/*
 * config.c: store.conf, one deb822 stanza read with libdpkg's parser.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dpkg/dpkg.h>
#include <dpkg/arch.h>

#include "base/error-at.h"
#include "debian/deb822.h"
#include "store/store.h"
#include "store/store-file.h"

#define CONFIG_MAX (64 * 1024)

static const char *const known[] = {
	"Registry", "Keyring", "Sign-With", "Codename", "Architectures",
	"Chroot", "Chroot-Suite",
};

/* A value that goes on a command line or into reprepro's configuration:
 * no control characters, no newline. */
static bool
plain_value(const char *v)
{
	for (; *v; v++)
		if ((unsigned char)*v < 0x20 || *v == 0x7f)
			return false;
	return true;
}

static char *
field(const struct deb822_stanza *s, const char *name)
{
	const struct deb822_field *f = deb822_find(s, name);

	return f != NULL && f->value[0] != '\0' ? m_strdup(f->value) : NULL;
}

/* A relative path in store.conf is relative to the store. */
static char *
in_store(const char *dir, char *path)
{
	char *full;

	if (path == NULL || path[0] == '/' || strstr(path, "://") != NULL)
		return path;
	if (asprintf(&full, "%s/%s", dir, path) < 0)
		abort();
	free(path);
	return full;
}

const char *
store_default_architecture(void)
{
	return dpkg_arch_get(DPKG_ARCH_NATIVE)->name;
}

int
store_config_read(struct store_config *c, const char *dir,
                  struct dpkg_error *err)
{
	struct deb822 d;
	char *file, *text = NULL;
	size_t len;
	int i, j, ret = -1;

	memset(c, 0, sizeof(*c));
	if (asprintf(&file, "%s/store.conf", dir) < 0)
		abort();
	if (store_file_read(file, CONFIG_MAX, &text, &len, err) < 0)
		goto out;
	if (deb822_parse(&d, file, text, len, err) < 0)
		goto out;
	if (d.nstanzas != 1) {
		put_error_at(err, file, 0, "expected one stanza, found %d",
		             d.nstanzas);
		goto done;
	}
	for (i = 0; i < d.stanzas[0].nfields; i++) {
		const struct deb822_field *f = &d.stanzas[0].fields[i];
		bool ok = false;

		for (j = 0; j < (int)(sizeof(known) / sizeof(known[0])); j++)
			ok |= strcasecmp(f->name, known[j]) == 0;
		if (!ok) {
			put_error_at(err, file, f->line, "unknown field %s",
			             f->name);
			goto done;
		}
		if (!plain_value(f->value)) {
			put_error_at(err, file, f->line, "%s: a control "
			             "character or a line break in the value",
			             f->name);
			goto done;
		}
	}
	if (deb822_duplicate_field(&d.stanzas[0]) != NULL) {
		put_error_at(err, file, d.stanzas[0].line, "field %s repeated",
		             deb822_duplicate_field(&d.stanzas[0]));
		goto done;
	}
	c->dir = realpath(dir, NULL);
	if (c->dir == NULL) {
		dpkg_put_errno(err, "%s: cannot resolve", dir);
		goto done;
	}
	c->registry = in_store(dir, field(&d.stanzas[0], "Registry"));
	c->keyring = in_store(dir, field(&d.stanzas[0], "Keyring"));
	c->sign_with = field(&d.stanzas[0], "Sign-With");
	c->codename = field(&d.stanzas[0], "Codename");
	c->architectures = field(&d.stanzas[0], "Architectures");
	c->chroot = field(&d.stanzas[0], "Chroot");
	c->chroot_suite = field(&d.stanzas[0], "Chroot-Suite");
	if (c->registry == NULL || c->keyring == NULL ||
	    c->sign_with == NULL) {
		put_error_at(err, file, 0, "Registry, Keyring and Sign-With "
		             "are needed");
		goto done;
	}
	if (c->codename == NULL)
		c->codename = m_strdup("extras");
	if (c->architectures == NULL)
		c->architectures =
			m_strdup(store_default_architecture());
	if (c->chroot != NULL && c->chroot_suite == NULL)
		c->chroot_suite = m_strdup("bookworm");
	ret = 0;
done:
	deb822_free(&d);
out:
	if (ret < 0)
		store_config_destroy(c);
	free(text);
	free(file);
	return ret;
}

void
store_config_destroy(struct store_config *c)
{
	free(c->dir);
	free(c->registry);
	free(c->keyring);
	free(c->sign_with);
	free(c->codename);
	free(c->architectures);
	free(c->chroot);
	free(c->chroot_suite);
	memset(c, 0, sizeof(*c));
}
