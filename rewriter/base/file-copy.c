/*
 * file-copy.c: a file's bytes copied, in the kernel where it can.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error-at.h"
#include "base/file-copy.h"

int
file_copy_fd(int out, int in, off_t size)
{
	off_t at = 0;
	char buf[65536];

	while (at < size) {
		off_t from = at;
		ssize_t n = copy_file_range(in, &from, out, NULL,
		                            (size_t)(size - at), 0);

		if (n > 0) {
			at += n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			break;
		if (errno != EXDEV && errno != ENOSYS && errno != EINVAL &&
		    errno != EOPNOTSUPP)
			return -1;
		/* No copy in the kernel here: through the buffer. */
		while (at < size) {
			ssize_t r = pread(in, buf, sizeof(buf), at), w = 0;

			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				return -1;
			while (w < r) {
				ssize_t k = write(out, buf + w, (size_t)(r - w));

				if (k < 0 && errno == EINTR)
					continue;
				if (k < 0)
					return -1;
				w += k;
			}
			at += r;
		}
	}
	if (at != size) {
		errno = EIO;
		return -1;
	}
	return 0;
}

int
file_copy(const char *from, const char *to, mode_t mode, bool exact,
          struct dpkg_error *err)
{
	struct stat st;
	int in = open(from, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	               mode & 07777);
	int ret = 0;

	if (in < 0 || out < 0 || fstat(in, &st) < 0)
		ret = put_error_at(err, to, 0, "cannot copy: %s",
		                   strerror(errno));
	if (ret == 0 && (file_copy_fd(out, in, st.st_size) < 0 ||
	                 (exact && fchmod(out, mode & 07777) < 0)))
		ret = put_error_at(err, to, 0, "cannot write: %s",
		                   strerror(errno));
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out) < 0 && ret == 0)
		ret = put_error_at(err, to, 0, "cannot write: %s",
		                   strerror(errno));
	return ret;
}
