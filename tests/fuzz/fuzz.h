/*
 * fuzz.h: what every libFuzzer harness of tests/fuzz/ shares.
 *
 * Each harness feeds its input to one parser of hostile input and only
 * checks that it returns: a crash, a leak, undefined behaviour or a hang
 * is the finding.  Readers that only take a file get the input through
 * fuzz_file(), one temporary file per process, rewritten for every input.
 */
#ifndef DH_EXTRAS_FUZZ_H
#define DH_EXTRAS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dpkg/dpkg.h>
#include <dpkg/program.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The directory holding fuzz_file(), removed at exit. */
static char fuzz_dir[64];
static char fuzz_path[128];

static inline void
fuzz_cleanup(void)
{
	char cmd[160];

	if (fuzz_dir[0] == '\0')
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fuzz_dir);
	(void)!system(cmd);
}

/*
 * Create the temporary directory (once) and return the path NAME in it,
 * which the harness rewrites for every input.
 */
static inline const char *
fuzz_file_path(const char *name)
{
	if (fuzz_dir[0] == '\0') {
		const char *tmp = getenv("TMPDIR");

		snprintf(fuzz_dir, sizeof(fuzz_dir), "%s/fuzz.XXXXXX",
		         tmp != NULL && strlen(tmp) < 40 ? tmp : "/tmp");
		if (mkdtemp(fuzz_dir) == NULL) {
			perror("mkdtemp");
			abort();
		}
		atexit(fuzz_cleanup);
	}
	snprintf(fuzz_path, sizeof(fuzz_path), "%s/%s", fuzz_dir, name);
	return fuzz_path;
}

/* Write DATA to the file NAME of the temporary directory; its path. */
static inline const char *
fuzz_file(const char *name, const uint8_t *data, size_t size)
{
	const char *path = fuzz_file_path(name);
	FILE *fp = fopen(path, "wb");

	if (fp == NULL || (size > 0 && fwrite(data, size, 1, fp) != 1) ||
	    fclose(fp) != 0) {
		perror(path);
		abort();
	}
	return path;
}

/* DATA as a NUL-terminated string (malloc'ed; inner NULs kept). */
static inline char *
fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s == NULL)
		abort();
	if (size > 0)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* libdpkg's messages name the program; its errors are caught per call. */
static inline void
fuzz_init(const char *name)
{
	dpkg_program_init(name);
}

/* The setup of a harness that needs nothing more (one per binary); one
 * that does defines FUZZ_OWN_INIT and its own, calling fuzz_init(). */
#ifndef FUZZ_OWN_INIT
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	fuzz_init((*argv)[0]);
	return 0;
}
#endif

#endif
