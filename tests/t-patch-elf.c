/*
 * Facts about patching ELF files in place: a program is compiled here
 * with paths that share their tails with other strings, patched through a
 * map whose new paths are shorter, and run.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../tests/elf-fixture.h"
#include "../tests/tap.h"
#include "relocate/elf-dynamic.h"
#include "relocate/patch.h"

static const char program[] =
	"#include <stdio.h>\n"
	"int main(void) {\n"
	"  fputs(\"/usr/local/share/foo/data.txt\\n\", stdout);\n"
	"  fputs(\"data.txt\\n\", stdout);\n"
	"  fputs(\"share/foo/data.txt\\n\", stdout);\n"
	"  printf(\"%s\", \"/usr/local/share/foo\\n\");\n"
	"  fputs(\"/usr/local/lib/foolong/x\\n\", stdout);\n"
	"  return 0;\n"
	"}\n";

/*
 * Strings as Go's linker packs them, with no terminator between them, in
 * a program with the section that marks a Go binary.
 */
static const char go_like[] =
	"#include <stdio.h>\n"
	"__attribute__((section(\".go.buildinfo\"), used))\n"
	"static const char buildinfo[32] = \"\\xff Go buildinf:\";\n"
	"static const char blob[] = \"addr/usr/local/share/foo0123456789\"\n"
	"  \" /usr/local/share/foo/data.txt\"\n"
	"  \" /usr/local/lib/foolong/x\";\n"
	"int main(void) { fwrite(blob, 1, sizeof(blob) - 1, stdout); "
	"return 0; }\n";

int
main(void)
{
	char dir[] = "/tmp/t-patch-elf.XXXXXX";
	struct dpkg_error err = DPKG_ERROR_INIT;
	char cmd[1024], path[256], patched[256];
	struct pathmap *paths = pathmap_new(), *none = pathmap_new();
	struct patch_context ctx = {
		.paths = paths, .programs = none, .icons = none,
	};
	struct pathmap_scanner *sc;
	struct patch_result res;
	struct report report;
	unsigned char *buf;
	size_t len = 0;
	FILE *fp;

	test_plan(21);
	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(path, sizeof(path), "%s/prog.c", dir);
	fp = fopen(path, "w");
	fputs(program, fp);
	fclose(fp);
	snprintf(cmd, sizeof(cmd), "cc -O2 -fmerge-constants -o %s/prog %s",
	         dir, path);
	test_int(system(cmd), ==, 0);
	snprintf(path, sizeof(path), "%s/prog", dir);
	buf = slurp(path, &len);
	test_ok(buf != NULL);

	pathmap_add(paths, "/usr/local/share/foo", "/o/ab/share/foo");
	pathmap_add(paths, "/usr/local/lib/foolong", "/o/ab/lib/foolong/but/longer");
	pathmap_compile(paths, &err);
	sc = pathmap_scanner_new(paths);
	report_init(&report);
	test_int(patch_elf(&ctx, sc, "/o/ab/bin/prog", buf, len, &res,
	                   &report), ==, 0);
	/* Edits, not a copy: two strings, no RUNPATH. */
	test_int(res.edits.n, ==, 2);
	test_ok(res.data == NULL);
	test_int(patch_result_apply(&res, buf, len), ==, 0);
	test_ok(res.data != NULL && res.len == len && res.edits.n == 0);
	/* Both references to /usr/local/share/foo patched, one refused. */
	test_int(report.n_patches, ==, 2);
	test_int(report.n_unpatched, ==, 1);
	test_str(report.unpatched[0].string, ==, "/usr/local/lib/foolong");

	snprintf(patched, sizeof(patched), "%s/patched", dir);
	fp = fopen(patched, "wb");
	fwrite(res.data, 1, res.len, fp);
	fclose(fp);
	chmod(patched, 0755);
	/* The tail-merged strings still read as they did. */
	test_str(run_output(patched), ==,
	         "/o/ab//////share/foo/data.txt\n"
	         "data.txt\n"
	         "share/foo/data.txt\n"
	         "/o/ab//////share/foo\n"
	         "/usr/local/lib/foolong/x\n");
	snprintf(cmd, sizeof(cmd), "cmp -s %s %s", path, patched);
	test_int(system(cmd), !=, 0);

	/*
	 * A RUNPATH of 1000 short entries, each 20 levels below: the new one
	 * is far more than four times longer (the heap overflow fuzzing found
	 * in new_rpath); it is written whole, in a segment added to the
	 * file.
	 */
	free(buf);
	patch_result_free(&res);
	report_free(&report);
	report_init(&report);
	snprintf(cmd, sizeof(cmd), "cd %s && echo 'int f(void) { return 1; }' "
	         ">lib.c && cc -shared -fPIC -o lib.so lib.c "
	         "-Wl,--enable-new-dtags -Wl,-rpath,$(for i in $(seq 1000); "
	         "do printf /usr/local/lib/foolong:; done)x", dir);
	test_int(system(cmd), ==, 0);
	snprintf(path, sizeof(path), "%s/lib.so", dir);
	buf = slurp(path, &len);
	memset(&res, 0, sizeof(res));
	test_int(patch_elf(&ctx, sc, "/o/ab/lib/foolong/1/2/3/4/5/6/7/8/9/10/"
	                   "11/12/13/14/15/16/17/18/libx.so", buf, len, &res,
	                   &report), ==, 0);
	test_int(patch_result_apply(&res, buf, len), ==, 0);
	{
		const char *one = "$ORIGIN/../../../../../../../../../../"
		                  "../../../../../../../../but/longer:";
		size_t n = strlen(one);
		struct elf_buffer eb = { res.data, res.len };
		struct elf_reader r = elf_reader_buffer(&eb);
		struct elf_dynamic d = { 0 };
		bool whole = res.rpath == NULL && res.len > len &&
		             elf_dynamic_read(&r, &d) == 1 && d.rpath != NULL &&
		             strlen(d.rpath) == 1000 * n + 1;
		int i;

		for (i = 0; whole && i < 1000; i++)
			whole = strncmp(d.rpath + i * n, one, n) == 0;
		test_ok(whole && strcmp(d.rpath + 1000 * n, "x") == 0);
		elf_dynamic_free(&d);
	}
	patch_result_free(&res);

	/*
	 * A Go binary: the path run on into the next string is found and
	 * not patched, though the new path fits (it may be part of a longer
	 * one); the one at a boundary is patched; the longer one refused.
	 */
	free(buf);
	report_free(&report);
	report_init(&report);
	snprintf(path, sizeof(path), "%s/go.c", dir);
	fp = fopen(path, "w");
	fputs(go_like, fp);
	fclose(fp);
	snprintf(cmd, sizeof(cmd), "cc -O2 -o %s/go %s", dir, path);
	test_int(system(cmd), ==, 0);
	snprintf(path, sizeof(path), "%s/go", dir);
	buf = slurp(path, &len);
	memset(&res, 0, sizeof(res));
	test_int(patch_elf(&ctx, sc, "/o/ab/bin/go", buf, len, &res,
	                   &report), ==, 0);
	test_int(report.n_patches, ==, 1);
	test_int(report.n_unpatched, ==, 2);
	test_ok(report.n_unpatched == 2 &&
	        strcmp(report.unpatched[0].string, "/usr/local/share/foo") == 0 &&
	        strstr(report.unpatched[0].reason, "Go string") != NULL &&
	        strcmp(report.unpatched[1].string,
	               "/usr/local/lib/foolong") == 0 &&
	        strstr(report.unpatched[1].reason, "Go string") != NULL);

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	(void)!system(cmd);
	free(buf);
	patch_result_free(&res);
	report_free(&report);
	pathmap_scanner_free(sc);
	pathmap_free(paths);
	pathmap_free(none);
	return test_done();
}
