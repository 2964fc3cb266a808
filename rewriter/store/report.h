/*
 * report.h: one report per upload, for its author: JSON and one static
 * HTML page.
 *
 *	{ "job": 1, "upload": "greet_1.0-1.dsc", "state": "published",
 *	  "verdict": "published" | "refused" | "in progress",
 *	  "attempts": 1, "app", "source", "version", "uploader",
 *	  "steps": [ { "step": "accept", "verdict": "ok" | "refused",
 *	               "command": "...", "log": "jobs/.../accept.log",
 *	               "output": "the log's last lines",
 *	               "reasons": [ "..." ], "report": { the tool's },
 *	               "seconds": 1.25 } ],
 *	  "loses": [ "..." ],  what the conversion dropped or changed
 *	  "fix": [ "..." ] }   every reason a step refused the upload
 *
 * The tools' own reports (extras-conflicts accept --json, extras-convert
 * --json, extras-review --json, claim --json) are kept whole under each
 * step's "report".  Written again after every step, atomically, so an
 * author can watch an upload go through.
 */
#ifndef DH_EXTRAS_STORE_REPORT_H
#define DH_EXTRAS_STORE_REPORT_H

#include <stddef.h>

#include <json-c/json.h>

#include <dpkg/error.h>

/* The report at JSON_PATH, or a new one for job ID of UPLOAD. */
struct json_object *report_open(const char *json_path, long long id,
                                const char *upload);

/* Set a top-level string member (NULL: null). */
void report_set(struct json_object *report, const char *key,
                const char *value);

/*
 * Record STEP's outcome (replacing an earlier attempt's): VERDICT, the
 * COMMAND run, its LOG (the last lines kept as "output"), the tool's JSON
 * report at TOOL_JSON (NULL: none), and the NREASONS REASONS it refused.
 */
void report_step(struct json_object *report, const char *step,
                 const char *verdict, const char *command, const char *log,
                 const char *log_name, const char *tool_json,
                 const char *const *reasons, size_t nreasons);

/* Record how long STEP took, in "seconds" (what make bench reads). */
void report_seconds(struct json_object *report, const char *step,
                    double seconds);

/* Add a line to "loses" (what the user loses). */
void report_lose(struct json_object *report, const char *what);

/* The step's tool report as parsed (NULL when none); borrowed. */
struct json_object *report_tool(struct json_object *report, const char *step);

/* Write REPORT to JSON_PATH and its page to HTML_PATH, atomically. */
int report_write(struct json_object *report, const char *json_path,
                 const char *html_path, struct dpkg_error *err);

/* The last line of LOG that is not empty (malloc'd), or NULL. */
char *report_last_line(const char *log);

#endif
