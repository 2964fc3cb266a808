/*
 * output.c: a report written where a command's --json option says.
 */
#include <errno.h>
#include <string.h>

#include "base/error-at.h"
#include "base/output.h"

int
output_replace(const char *path, file_writer *writer, const void *data,
               struct dpkg_error *err)
{
	if (strcmp(path, "-") == 0) {
		if (writer(stdout, data) < 0 || fflush(stdout) != 0)
			return put_error_at(err, "standard output", 0,
			                    "cannot write the report: %s",
			                    strerror(errno));
		return 0;
	}
	return file_write_atomically(path, writer, data, NULL, FILE_WRITE_SYNC,
	                             err);
}
