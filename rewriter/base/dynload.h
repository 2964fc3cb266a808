/*
 * dynload.h: a library's functions loaded with dlopen() on first use.
 *
 * Linked, a library and what it needs are relocated at every start of
 * every command, although most runs never call it: libpq (a registry in
 * PostgreSQL), libxml2 (metainfo files), libarchive (compressed blobs)
 * and the decompressors each cost milliseconds, more than a no-op
 * debhelper step.  debian/control names them in Depends.
 *
 * A file lists its functions once, as an X macro, and declares the
 * library with it:
 *
 *	#define PQ_FUNCTIONS(X) X(PQconnectdb) X(PQexec)
 *	DYNLOAD_LIBRARY(libpq, "libpq.so.5", PQ_FUNCTIONS)
 *	#define PQexec (*dl_PQexec)
 *
 * then calls dynload(&libpq) before the first call.
 */
#ifndef DH_EXTRAS_DYNLOAD_H
#define DH_EXTRAS_DYNLOAD_H

#include <stdbool.h>

struct dynload_library {
	const char *soname;
	/* The functions' names and where their addresses go, NULL-ended. */
	const char *const *names;
	void **const *slots;
	bool tried;
	/* Why it could not be loaded, or NULL. */
	char *error;
};

#define DYNLOAD_POINTER(f) static __typeof__(&f) dl_##f;
#define DYNLOAD_NAME(f) #f,
#define DYNLOAD_SLOT(f) (void **)&dl_##f,
/* One pointer dl_F for each function F of FUNCTIONS, and LIB. */
#define DYNLOAD_LIBRARY(lib, soname, FUNCTIONS) \
	FUNCTIONS(DYNLOAD_POINTER) \
	static const char *const lib##_names[] = { \
		FUNCTIONS(DYNLOAD_NAME) NULL \
	}; \
	static void **const lib##_slots[] = { \
		FUNCTIONS(DYNLOAD_SLOT) NULL \
	}; \
	static struct dynload_library lib = { \
		soname, lib##_names, lib##_slots, false, NULL \
	};

/* Loads LIB once (any thread may ask): NULL when its functions can be
 * called, else why not ("cannot load SONAME: ..."), the same each time. */
const char *dynload(struct dynload_library *lib);

#endif
