/*
 * output.c: a report written where a command's --json option says.
 */
#include <string.h>

#include <dpkg/dpkg.h>
#include <dpkg/atomic-file.h>
#include <dpkg/ehandle.h>

#include "base/output.h"

void
output_replace(const char *path, output_writer *write, const void *data)
{
	struct atomic_file *file;

	if (strcmp(path, "-") == 0) {
		write(stdout, data);
		if (fflush(stdout) != 0)
			ohshite("cannot write the report to standard output");
		return;
	}
	file = atomic_file_new(path, ATOMIC_FILE_NORMAL);
	atomic_file_open(file);
	write(file->fp, data);
	atomic_file_sync(file);
	atomic_file_close(file);
	atomic_file_commit(file);
	atomic_file_free(file);
}
