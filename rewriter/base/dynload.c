/*
 * dynload.c: a library's functions loaded with dlopen() on first use.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

#include <dpkg/dpkg.h>
#include <dpkg/string.h>

#include "base/dynload.h"

/* One lock for every library: each is loaded once, at its first use. */
static pthread_mutex_t dynload_lock = PTHREAD_MUTEX_INITIALIZER;

static char *
load(struct dynload_library *lib)
{
	void *handle = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);

	if (handle == NULL)
		return str_fmt("cannot load %s: %s", lib->soname, dlerror());
	for (size_t i = 0; lib->names[i] != NULL; i++) {
		/* POSIX's way of storing a function's address. */
		*lib->slots[i] = dlsym(handle, lib->names[i]);
		if (*lib->slots[i] == NULL)
			return str_fmt("cannot load %s: it lacks %s",
			               lib->soname, lib->names[i]);
	}
	return NULL;
}

const char *
dynload(struct dynload_library *lib)
{
	const char *error;

	pthread_mutex_lock(&dynload_lock);
	if (!lib->tried) {
		lib->error = load(lib);
		lib->tried = true;
	}
	error = lib->error;
	pthread_mutex_unlock(&dynload_lock);
	return error;
}
