/*
 * dpkg-catch.h: libdpkg's ohshit() caught, for a library that never exits.
 *
 * libdpkg reports errors by longjmp()ing to the innermost error context;
 * without one it exits.  dpkg_catch() runs a piece of libdpkg work inside
 * a context of its own and turns an ohshit() into a return value and a
 * message, which the caller words into its struct dpkg_error.
 */
#ifndef DH_EXTRAS_DPKG_CATCH_H
#define DH_EXTRAS_DPKG_CATCH_H

#include <stddef.h>

/*
 * Run FN(ARG) with libdpkg's ohshit() caught: 0 when FN returned, or -1
 * with libdpkg's message in MSG (SIZE bytes, cut to fit); MSG is "" on 0.
 * On -1 the cleanups FN pushed have run (ehflag_bombout) and FN stopped
 * where it called ohshit(): what it must undo beyond them, it leaves in
 * ARG for the caller.  libdpkg's error contexts are one stack for the
 * process, so this belongs to one thread (never a relocation worker);
 * calls nest.
 */
int dpkg_catch(void (*fn)(void *arg), void *arg, char *msg, size_t size);

/*
 * The reason in MSG, a message of libdpkg's deb822 parser, without the
 * "parsing file '...' near line N:\n " lead it puts first: the caller
 * names the file and the line its reader knows.  MSG itself when it has
 * no such lead.
 */
const char *dpkg_catch_reason(const char *msg);

#endif
