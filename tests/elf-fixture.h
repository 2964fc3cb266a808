/*
 * elf-fixture.h: what the ELF unit tests share: a program built here read
 * whole, and a command's output.
 */
#ifndef DH_EXTRAS_TESTS_ELF_FIXTURE_H
#define DH_EXTRAS_TESTS_ELF_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

/* The file PATH read whole into a new buffer, its length in *LEN. */
static unsigned char *
slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *buf;
	long n;

	if (fp == NULL)
		return NULL;
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	buf = malloc((size_t)n);
	if (fread(buf, 1, (size_t)n, fp) != (size_t)n) {
		fclose(fp);
		free(buf);
		return NULL;
	}
	fclose(fp);
	*len = (size_t)n;
	return buf;
}

/* What the shell command CMD prints (its first 4 KiB), until the next
 * call. */
static const char *
run_output(const char *cmd)
{
	static char out[4096];
	FILE *p = popen(cmd, "r");
	size_t n;

	if (p == NULL)
		return "";
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	pclose(p);
	return out;
}

#endif
