/*
 * tap.h: the smallest TAP producer the C unit tests need.
 *
 * Each assertion prints one "ok N - what" line; a failure adds a "#"
 * diagnostic with the file, the line and both values.  Tests read as a
 * table of facts: test_plan(N), then one assertion per line.
 */
#ifndef DH_EXTRAS_TAP_H
#define DH_EXTRAS_TAP_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_count;
static int tap_failed;

static inline void
test_plan(int n)
{
	printf("1..%d\n", n);
	fflush(stdout);
}

static inline int
tap_result(int pass, const char *file, int line, const char *what)
{
	tap_count++;
	printf("%sok %d - %s\n", pass ? "" : "not ", tap_count, what);
	if (!pass) {
		tap_failed++;
		printf("#   failed at %s:%d\n", file, line);
	}
	fflush(stdout);
	return pass;
}

/* A fact that cannot be checked here: one TAP skip, counted as run. */
static inline void
test_skip(const char *what, const char *why)
{
	tap_count++;
	printf("ok %d - %s # SKIP %s\n", tap_count, what, why);
	fflush(stdout);
}

#define test_pass(what) tap_result(1, __FILE__, __LINE__, (what))
#define test_fail(what) tap_result(0, __FILE__, __LINE__, (what))

#define test_ok(expr) tap_result(!!(expr), __FILE__, __LINE__, #expr)

#define test_int(a, op, b) do { \
	long long tap_a_ = (long long)(a), tap_b_ = (long long)(b); \
	if (!tap_result(tap_a_ op tap_b_, __FILE__, __LINE__, \
	                #a " " #op " " #b)) \
		printf("#   got %lld, expected %s %lld\n", tap_a_, #op, tap_b_); \
} while (0)

#define test_str(a, op, b) do { \
	const char *tap_a_ = (a), *tap_b_ = (b); \
	int tap_c_ = (tap_a_ && tap_b_) ? strcmp(tap_a_, tap_b_) : \
	             (tap_a_ != tap_b_); \
	if (!tap_result(tap_c_ op 0, __FILE__, __LINE__, \
	                #a " " #op " " #b)) \
		printf("#   got \"%s\", expected %s \"%s\"\n", \
		       tap_a_ ? tap_a_ : "(null)", #op, \
		       tap_b_ ? tap_b_ : "(null)"); \
} while (0)

#define test_mem(a, b, n) \
	tap_result(memcmp((a), (b), (n)) == 0, __FILE__, __LINE__, \
	           "memcmp(" #a ", " #b ", " #n ") == 0")

static inline int
test_done(void)
{
	return tap_failed ? 1 : 0;
}

#endif /* DH_EXTRAS_TAP_H */
