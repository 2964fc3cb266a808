/*
 * Facts about writing a RUNPATH in place: programs are linked here with a
 * RUNPATH, with an RPATH, with neither and with a large .dynstr, given
 * "$ORIGIN/../lib" where their library is, checked with readelf -d and
 * objdump -p, run, stripped and run; one too long for any room in the
 * file gets a segment of its own; and a file with no spare entry for it
 * is refused.
 */
#include <elf.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../tests/elf-fixture.h"
#include "../tests/tap.h"
#include "relocate/elf-dynamic.h"

static char dir[] = "/tmp/t-elf-dynamic.XXXXXX";

/* What the command FMT, its first %s the test's directory, prints. */
static const char *
run(const char *fmt, const char *arg)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), fmt, dir, arg);
	return run_output(cmd);
}

/* Link bin/NAME against lib/libbar.so with the linker flags FLAGS. */
static int
link_program(const char *name, const char *flags)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "cd %s && cc -o bin/%s prog.c -Llib -lbar %s",
	         dir, name, flags);
	return system(cmd);
}

/*
 * Give bin/NAME (through a file descriptor, as relocation reads it) the
 * RUNPATH RP, written to bin/NAME.new: what elf_runpath_edits() says.
 */
static int set_runpath_at(const char *sub, const char *name, const char *rp,
                          struct elf_dynamic *d);

static int
set_runpath(const char *name, const char *rp, struct elf_dynamic *d)
{
	return set_runpath_at("bin", name, rp, d);
}

/* The same for SUB/NAME. */
static int
set_runpath_at(const char *sub, const char *name, const char *rp,
               struct elf_dynamic *d)
{
	char path[256], out[256];
	struct elf_edits edits;
	struct elf_reader r;
	unsigned char *buf;
	size_t len;
	int fd, rc;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, name);
	snprintf(out, sizeof(out), "%s/%s/%s.new", dir, sub, name);
	buf = slurp(path, &len);
	fd = open(path, O_RDONLY);
	r = elf_reader_fd(&fd, len);
	if (buf == NULL || fd < 0 || elf_dynamic_read(&r, d) != 1) {
		free(buf);
		return -1;
	}
	rc = elf_runpath_edits(&r, d, rp, &edits);
	close(fd);
	if (rc == 0) {
		size_t newlen = elf_edits_length(&edits, len);
		unsigned char *grown = realloc(buf, newlen);

		if (grown == NULL) {
			free(buf);
			return -1;
		}
		buf = grown;
		memset(buf + len, 0, newlen - len);
		elf_edits_apply(&edits, buf, newlen);
		elf_edits_free(&edits);
		fp = fopen(out, "wb");
		fwrite(buf, 1, newlen, fp);
		fclose(fp);
		chmod(out, 0755);
	}
	free(buf);
	return rc;
}

int
main(void)
{
	struct elf_dynamic d;
	char path[256];
	unsigned char *buf;
	size_t len;
	FILE *fp;

	test_plan(50);
	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(path, sizeof(path), "%s/prog.c", dir);
	fp = fopen(path, "w");
	fputs("#include <stdio.h>\nconst char *bar(void);\n"
	      "int main(void) { puts(bar()); return 0; }\n", fp);
	fclose(fp);
	test_int(system(run("cd %s && mkdir bin lib && echo 'const char *"
	                    "bar(void) { return \"found\"; }' >bar.c && cc "
	                    "-shared -fPIC -o lib/libbar.so bar.c%s", "")),
	         ==, 0);

	/* A RUNPATH: its entry takes the new string, placed where there is
	 * room; the old one loses its directories. */
	test_int(link_program("runpath", "-Wl,-rpath,/nowhere "
	                      "-Wl,--enable-new-dtags"), ==, 0);
	test_int(set_runpath("runpath", "$ORIGIN/../lib", &d), ==, 0);
	test_str(d.rpath, ==, "/nowhere");
	elf_dynamic_free(&d);
	test_str(run("readelf -d %s/bin/runpath.new | grep -c 'Library "
	             "runpath: \\[\\$ORIGIN/../lib\\]'%s", ""), ==, "1\n");
	test_str(run("objdump -p %s/bin/runpath.new | grep -c 'RUNPATH *"
	             "\\$ORIGIN/../lib$'%s", ""), ==, "1\n");
	test_str(run("env -u LD_LIBRARY_PATH %s/bin/runpath.new%s", ""), ==,
	         "found\n");
	test_str(run("grep -c -a /nowhere %s/bin/runpath.new%s", ""), ==,
	         "0\n");
	/* strip keeps it: the string lies in .dynstr. */
	test_str(run("cd %s/bin && strip -o runpath.stripped runpath.new && "
	             "env -u LD_LIBRARY_PATH ./runpath.stripped%s", ""), ==,
	         "found\n");

	/* An RPATH and a RUNPATH of the same string, as old linkers wrote
	 * them: both take the new one. */
	snprintf(path, sizeof(path), "%s/bin/runpath", dir);
	buf = slurp(path, &len);
	{
		struct elf_buffer eb = { buf, len };
		struct elf_reader r = elf_reader_buffer(&eb);
		size_t at;

		test_int(elf_dynamic_read(&r, &d), ==, 1);
		at = d.dyn_off + (d.dyn_used - 1) * 16;
		buf[at] = DT_RPATH;
		memcpy(buf + at + 8, d.dyn + d.rpath_entry * 16 + 8, 8);
		elf_dynamic_free(&d);
		snprintf(path, sizeof(path), "%s/bin/both", dir);
		fp = fopen(path, "wb");
		fwrite(buf, 1, len, fp);
		fclose(fp);
		chmod(path, 0755);
	}
	free(buf);
	test_int(set_runpath("both", "$ORIGIN/../lib", &d), ==, 0);
	elf_dynamic_free(&d);
	test_str(run("readelf -d %s/bin/both.new | grep -c 'Library r[a-z]*"
	             "path: \\[\\$ORIGIN/../lib\\]'%s", ""), ==, "2\n");

	/* A shorter one is written over the old, padded with slashes. */
	test_int(link_program("long", "-Wl,-rpath,/a/long/way/to/nowhere "
	                      "-Wl,--enable-new-dtags"), ==, 0);
	test_int(set_runpath("long", "$ORIGIN/../lib", &d), ==, 0);
	elf_dynamic_free(&d);
	test_str(run("readelf -d %s/bin/long.new | grep -c 'Library runpath: "
	             "\\[\\$ORIGIN/[./]*lib\\]'%s", ""), ==, "1\n");
	test_str(run("env -u LD_LIBRARY_PATH %s/bin/long.new%s", ""), ==,
	         "found\n");

	/* An RPATH keeps its tag. */
	test_int(link_program("rpath", "-Wl,-rpath,/nowhere "
	                      "-Wl,--disable-new-dtags"), ==, 0);
	test_int(set_runpath("rpath", "$ORIGIN/../lib", &d), ==, 0);
	test_int(d.rpath_entry >= 0, ==, 1);
	elf_dynamic_free(&d);
	test_str(run("readelf -d %s/bin/rpath.new | grep -c 'Library rpath: "
	             "\\[\\$ORIGIN/../lib\\]'%s", ""), ==, "1\n");
	test_str(run("env -u LD_LIBRARY_PATH %s/bin/rpath.new%s", ""), ==,
	         "found\n");

	/* Neither: a spare DT_NULL becomes the entry. */
	test_int(link_program("neither", ""), ==, 0);
	test_int(set_runpath("neither", "$ORIGIN/../lib", &d), ==, 0);
	test_int(d.rpath_entry, ==, -1);
	test_int(d.dyn_used < d.dyn_slots, ==, 1);
	elf_dynamic_free(&d);
	test_str(run("readelf -d %s/bin/neither.new | grep -c 'Library "
	             "runpath: \\[\\$ORIGIN/../lib\\]'%s", ""), ==, "1\n");
	test_str(run("env -u LD_LIBRARY_PATH %s/bin/neither.new%s", ""), ==,
	         "found\n");

	/* A .dynstr larger than a page's padding cannot be copied: the
	 * version and relocation tables after it move on instead, and it
	 * grows where it is. */
	test_int(system(run("cd %s && for i in $(seq 400); do echo \"void "
	                    "a_function_with_a_rather_long_name_$i(void) "
	                    "{}\"; done >many.c && cc -o bin/big -rdynamic "
	                    "prog.c many.c -Llib -lbar%s", "")), ==, 0);
	test_int(set_runpath("big", "$ORIGIN/../lib", &d), ==, 0);
	test_int(d.str_size > 4096, ==, 1);
	elf_dynamic_free(&d);
	test_str(run("cd %s/bin && for f in big big.new; do readelf -S -W $f "
	             "| sed -n 's/.*[.]dynstr *STRTAB *[0-9a-f]* \\([0-9a-f]*\\)"
	             " .*/\\1/p'; done | uniq | wc -l%s", ""), ==, "1\n");
	test_str(run("readelf -d %s/bin/big.new | grep -c 'Library runpath: "
	             "\\[\\$ORIGIN/../lib\\]'%s", ""), ==, "1\n");
	test_str(run("objdump -p %s/bin/big.new | grep -c 'RUNPATH *"
	             "\\$ORIGIN/../lib$'%s", ""), ==, "1\n");
	test_str(run("cd %s/bin && strip -o big.stripped big.new && "
	             "env -u LD_LIBRARY_PATH ./big.stripped%s", ""), ==,
	         "found\n");

	/* No room in the file for the string, more than the padding of a
	 * page: a new segment at the end holds .dynstr and it.  The
	 * program's header takes the place of the PT_NOTE that repeats
	 * PT_GNU_PROPERTY (gcc's programs have one); the library has none
	 * such, and its program header table grows, the notes and hash
	 * table after it moving to the new segment.  The library needs
	 * libbaz.so from the directory its RUNPATH names. */
	{
		char rp[8192];
		size_t i;

		for (i = 0; i + 16 < sizeof(rp); i += 15)
			memcpy(rp + i, "$ORIGIN/../lib:", 15);
		rp[i - 1] = '\0';
		test_int(set_runpath("neither", rp, &d), ==, 0);
		elf_dynamic_free(&d);
		test_str(run("readelf -d %s/bin/neither.new | grep -c 'Library "
		             "runpath: \\[\\$ORIGIN/../lib:\\$ORIGIN/../lib:'%s",
		             ""), ==, "1\n");
		test_str(run("cd %s/bin && echo $(($(readelf -lW neither.new | "
		             "grep -c LOAD) - $(readelf -lW neither | grep -c "
		             "LOAD)))%s", ""), ==, "1\n");
		test_str(run("env -u LD_LIBRARY_PATH %s/bin/neither.new%s", ""),
		         ==, "found\n");
		test_str(run("cd %s/bin && strip -o neither.stripped neither.new "
		             "&& env -u LD_LIBRARY_PATH ./neither.stripped%s", ""),
		         ==, "found\n");

		test_int(system(run("cd %s && mkdir baz && echo 'const char "
		                    "*baz(void) { return \"from baz\"; }' >baz.c "
		                    "&& cc -shared -fPIC -o baz/libbaz.so baz.c && "
		                    "echo 'const char *baz(void); const char "
		                    "*bar(void) { return baz(); }' >bar2.c && cc "
		                    "-shared -fPIC -o lib/libbar2.so bar2.c -Lbaz "
		                    "-lbaz && cc -o bin/two prog.c -Llib -lbar2 "
		                    "-Wl,-rpath-link,baz '-Wl,-rpath,$ORIGIN/../lib'"
		                    "%s", "")), ==, 0);
		memcpy(rp, "$ORIGIN/../baz:", 15);
		test_int(set_runpath_at("lib", "libbar2.so", rp, &d), ==, 0);
		elf_dynamic_free(&d);
		test_str(run("cd %s/lib && readelf -lW libbar2.so | grep -c "
		             "'NOTE\\|GNU_PROPERTY\\|NULL'; echo $(($(readelf -h "
		             "libbar2.so.new | sed -n 's/.*Number of program "
		             "headers: *//p') - $(readelf -h libbar2.so | sed -n "
		             "'s/.*Number of program headers: *//p')))%s", ""), ==,
		         "1\n1\n");
		test_str(run("readelf -d %s/lib/libbar2.so.new | grep -c 'Library "
		             "runpath: \\[\\$ORIGIN/../baz:\\$ORIGIN/../lib:'%s",
		             ""), ==, "1\n");
		test_str(run("cd %s && mv lib/libbar2.so.new lib/libbar2.so && "
		             "env -u LD_LIBRARY_PATH bin/two%s", ""), ==,
		         "from baz\n");
		test_str(run("cd %s && strip lib/libbar2.so && env -u "
		             "LD_LIBRARY_PATH bin/two && objdump -p lib/libbar2.so "
		             "| grep -c 'RUNPATH *\\$ORIGIN/../baz:'%s", ""), ==,
		         "from baz\n1\n");
		/* elfutils' checker, where it is installed. */
		test_str(run("cd %s && if command -v eu-elflint >/dev/null; then "
		             "eu-elflint --gnu-ld lib/libbar2.so; eu-elflint "
		             "--gnu-ld bin/neither.new; "
		             "else echo 'No errors'; echo 'No errors'; fi%s", ""),
		         ==, "No errors\nNo errors\n");
	}

	/* No room for the entry: every spare DT_NULL taken (as DT_DEBUG). */
	snprintf(path, sizeof(path), "%s/bin/neither", dir);
	buf = slurp(path, &len);
	{
		struct elf_buffer eb = { buf, len };
		struct elf_reader r = elf_reader_buffer(&eb);
		struct elf_edits edits;
		size_t i;

		test_int(elf_dynamic_read(&r, &d), ==, 1);
		for (i = d.dyn_used - 1; i + 1 < d.dyn_slots; i++)
			buf[d.dyn_off + i * 16] = DT_DEBUG;
		elf_dynamic_free(&d);
		test_int(elf_dynamic_read(&r, &d), ==, 1);
		test_int(elf_runpath_edits(&r, &d, "$ORIGIN/../lib", &edits),
		         ==, 1);
		elf_dynamic_free(&d);
	}
	free(buf);

	/* Not an ELF file: nothing read. */
	{
		struct elf_buffer eb = { (const unsigned char *)"#!/bin/sh\n",
		                         10 };
		struct elf_reader r = elf_reader_buffer(&eb);

		test_int(elf_dynamic_read(&r, &d), ==, 0);
	}

	run("rm -rf %s%s", "");
	return test_done();
}
