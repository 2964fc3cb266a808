/*
 * store-file.h: the store's files and the tools it runs.
 */
#ifndef DH_EXTRAS_STORE_FILE_H
#define DH_EXTRAS_STORE_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include <dpkg/error.h>

/* Read PATH (a regular file, at most MAX bytes) into *TEXT (NUL ended). */
int store_file_read(const char *path, size_t max, char **text, size_t *len,
                    struct dpkg_error *err);

/* Replace PATH by LEN bytes of TEXT, atomically and synced
 * (file_write_atomically). */
int store_file_write(const char *path, const char *text, size_t len,
                     struct dpkg_error *err);

/* mkdir -p PATH. */
int store_mkdirs(const char *path, struct dpkg_error *err);

/* rm -rf PATH (nothing when it does not exist). */
int store_remove_tree(const char *path, struct dpkg_error *err);

/*
 * Run ARGV (found in PATH) in DIR (NULL: here), with no input and its
 * output appended to LOG (NULL: this process's).  *STATUS is its exit
 * status; -1 with ERR set when it could not run or was killed.
 */
int store_spawn(const char *const *argv, const char *dir, const char *log,
                int *status, struct dpkg_error *err);

/* ARGV as one line, for reports ("extras-convert --identity ..."). */
char *store_command_line(const char *const *argv);

#endif
