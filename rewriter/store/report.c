/*
 * report.c: the upload's report, kept as json-c objects, written as JSON
 * and as one static HTML page.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dpkg/dpkg.h>
#include <dpkg/varbuf.h>

#include "base/json.h"
#include "base/utf8.h"
#include "store/report.h"
#include "store/store-file.h"

/* What a report keeps of a step's log: its end, where the error is. */
#define OUTPUT_TAIL 4096
#define LOG_MAX (64 * 1024 * 1024)
#define TOOL_REPORT_MAX (16 * 1024 * 1024)

struct json_object *
report_open(const char *json_path, long long id, const char *upload)
{
	struct json_object *report = json_object_from_file(json_path);

	if (report != NULL && json_object_is_type(report, json_type_object))
		return report;
	json_object_put(report);
	report = json_object_new_object();
	json_object_object_add(report, "job", json_object_new_int64(id));
	json_object_object_add(report, "upload",
	                       json_text(upload));
	json_object_object_add(report, "state", json_text("queued"));
	json_object_object_add(report, "verdict",
	                       json_text("in progress"));
	json_object_object_add(report, "attempts", json_object_new_int(0));
	json_object_object_add(report, "steps", json_object_new_array());
	json_object_object_add(report, "loses", json_object_new_array());
	json_object_object_add(report, "fix", json_object_new_array());
	return report;
}

void
report_set(struct json_object *report, const char *key, const char *value)
{
	json_object_object_add(report, key, value ?
	                       json_text(value) : NULL);
}

/* The log's last OUTPUT_TAIL bytes, from a line's start. */
static char *
log_tail(const char *log)
{
	struct dpkg_error err = DPKG_ERROR_INIT;
	char *text, *start, *tail;
	size_t len;

	if (log == NULL || store_file_read(log, LOG_MAX, &text, &len, &err) < 0) {
		dpkg_error_destroy(&err);
		return m_strdup("");
	}
	start = text;
	if (len > OUTPUT_TAIL) {
		start = text + len - OUTPUT_TAIL;
		if (memchr(start, '\n', text + len - start) != NULL)
			start = (char *)memchr(start, '\n',
			                       text + len - start) + 1;
	}
	/* A build prints whatever bytes it likes: valid UTF-8 made of
	 * them, for JSON. */
	tail = utf8_clean(start, text + len - start);
	free(text);
	return tail;
}

char *
report_last_line(const char *log)
{
	char *tail = log_tail(log), *end, *line;

	end = tail + strlen(tail);
	while (end > tail && (end[-1] == '\n' || end[-1] == ' '))
		*--end = '\0';
	line = strrchr(tail, '\n');
	line = m_strdup(line ? line + 1 : tail);
	free(tail);
	if (line[0] == '\0') {
		free(line);
		return NULL;
	}
	return line;
}

/* The steps' array without STEP's earlier entry. */
static struct json_object *
steps_without(struct json_object *report, const char *step)
{
	struct json_object *steps, *kept = json_object_new_array();
	size_t i;

	if (json_object_object_get_ex(report, "steps", &steps))
		for (i = 0; i < json_object_array_length(steps); i++) {
			struct json_object *s = json_object_array_get_idx(steps, i);
			struct json_object *name;

			if (json_object_object_get_ex(s, "step", &name) &&
			    strcmp(json_object_get_string(name), step) == 0)
				continue;
			json_object_array_add(kept, json_object_get(s));
		}
	json_object_object_add(report, "steps", kept);
	return kept;
}

void
report_step(struct json_object *report, const char *step,
            const char *verdict, const char *command, const char *log,
            const char *log_name, const char *tool_json,
            const char *const *reasons, size_t nreasons)
{
	struct json_object *steps = steps_without(report, step);
	struct json_object *s = json_object_new_object(), *list, *fix;
	struct json_object *tool = NULL;
	struct stat st;
	char *tail = log_tail(log);
	size_t i;

	json_object_object_add(s, "step", json_text(step));
	json_object_object_add(s, "verdict", json_text(verdict));
	json_object_object_add(s, "command", command ?
	                       json_text(command) : NULL);
	json_object_object_add(s, "log", log_name ?
	                       json_text(log_name) : NULL);
	json_object_object_add(s, "output", json_text(tail));
	free(tail);
	list = json_object_new_array();
	if (!json_object_object_get_ex(report, "fix", &fix)) {
		fix = json_object_new_array();
		json_object_object_add(report, "fix", fix);
	}
	for (i = 0; i < nreasons; i++) {
		json_object_array_add(list, json_text(reasons[i]));
		json_object_array_add(fix, json_text(reasons[i]));
	}
	json_object_object_add(s, "reasons", list);
	/* A tool's report is the store's own file, but bounded all the
	 * same: the upload fills it. */
	if (tool_json != NULL && stat(tool_json, &st) == 0 &&
	    S_ISREG(st.st_mode) && st.st_size <= TOOL_REPORT_MAX)
		tool = json_object_from_file(tool_json);
	json_object_object_add(s, "report", tool);
	json_object_array_add(steps, s);
}

void
report_seconds(struct json_object *report, const char *step, double seconds)
{
	struct json_object *steps, *s, *name;
	size_t i;

	if (!json_object_object_get_ex(report, "steps", &steps))
		return;
	for (i = 0; i < json_object_array_length(steps); i++) {
		s = json_object_array_get_idx(steps, i);
		if (json_object_object_get_ex(s, "step", &name) &&
		    strcmp(json_object_get_string(name), step) == 0)
			json_object_object_add(s, "seconds",
			                       json_object_new_double(seconds));
	}
}

void
report_lose(struct json_object *report, const char *what)
{
	struct json_object *loses;

	if (!json_object_object_get_ex(report, "loses", &loses)) {
		loses = json_object_new_array();
		json_object_object_add(report, "loses", loses);
	}
	json_object_array_add(loses, json_text(what));
}

struct json_object *
report_tool(struct json_object *report, const char *step)
{
	struct json_object *steps, *tool;
	size_t i;

	if (!json_object_object_get_ex(report, "steps", &steps))
		return NULL;
	for (i = 0; i < json_object_array_length(steps); i++) {
		struct json_object *s = json_object_array_get_idx(steps, i);
		struct json_object *name;

		if (json_object_object_get_ex(s, "step", &name) &&
		    strcmp(json_object_get_string(name), step) == 0 &&
		    json_object_object_get_ex(s, "report", &tool))
			return tool;
	}
	return NULL;
}

/* HTML: text escaped for an element's content or an attribute. */
static void
html_text(struct varbuf *vb, const char *s)
{
	for (; s != NULL && *s; s++)
		switch (*s) {
		case '<': varbuf_add_str(vb, "&lt;"); break;
		case '>': varbuf_add_str(vb, "&gt;"); break;
		case '&': varbuf_add_str(vb, "&amp;"); break;
		case '"': varbuf_add_str(vb, "&quot;"); break;
		case '\'': varbuf_add_str(vb, "&#39;"); break;
		default:
			/* Control characters (a hostile log's escapes)
			 * other than the line breaks shown. */
			if ((unsigned char)*s < 0x20 && *s != '\n' &&
			    *s != '\t')
				varbuf_add_char(vb, '?');
			else
				varbuf_add_char(vb, *s);
		}
}

static const char *
member(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || v == NULL)
		return NULL;
	return json_object_get_string(v);
}

/* The strings of array KEY of OBJ as a section under a heading of LEVEL,
 * with the id ID (NULL: a step's, of which a page has several). */
static void
html_list(struct varbuf *vb, struct json_object *report, const char *key,
          int level, const char *title, const char *id, const char *none)
{
	struct json_object *list;
	size_t i, n = 0;

	if (json_object_object_get_ex(report, key, &list) && list != NULL)
		n = json_object_array_length(list);
	if (id != NULL)
		varbuf_printf(vb, "<section id=\"%s\">", id);
	else
		varbuf_printf(vb, "<section class=\"%s\">", key);
	varbuf_printf(vb, "<h%d>%s</h%d>\n", level, title, level);
	if (n == 0) {
		varbuf_printf(vb, "<p>%s</p>\n", none);
	} else {
		varbuf_add_str(vb, "<ul>\n");
		for (i = 0; i < n; i++) {
			varbuf_add_str(vb, "<li>");
			html_text(vb, json_object_get_string(
				json_object_array_get_idx(list, i)));
			varbuf_add_str(vb, "</li>\n");
		}
		varbuf_add_str(vb, "</ul>\n");
	}
	varbuf_add_str(vb, "</section>\n");
}

static void
html_page(struct varbuf *vb, struct json_object *report)
{
	struct json_object *steps;
	const char *verdict = member(report, "verdict");
	const char *fields[] = { "upload", "app", "source", "version",
	                         "uploader", "state", "attempts" };
	size_t i;

	varbuf_add_str(vb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	               "<meta charset=\"utf-8\">\n<title>");
	html_text(vb, member(report, "upload"));
	varbuf_add_str(vb, ": ");
	html_text(vb, verdict);
	varbuf_add_str(vb, "</title>\n<style>\n"
	               "body{font-family:sans-serif;max-width:60em;margin:1em auto;padding:0 1em}\n"
	               ".published,.ok{color:#006400}.refused{color:#b00000}\n"
	               "table{border-collapse:collapse}td,th{border:1px solid #999;padding:.2em .5em;text-align:left}\n"
	               "pre{background:#f4f4f4;padding:.5em;overflow-x:auto;white-space:pre-wrap}\n"
	               "</style>\n</head>\n<body>\n<h1>");
	html_text(vb, member(report, "upload"));
	varbuf_add_str(vb, "</h1>\n<p id=\"verdict\" class=\"");
	html_text(vb, verdict);
	varbuf_add_str(vb, "\">Verdict: <strong>");
	html_text(vb, verdict);
	varbuf_add_str(vb, "</strong></p>\n<table id=\"upload\">\n");
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		varbuf_printf(vb, "<tr><th>%s</th><td>", fields[i]);
		html_text(vb, member(report, fields[i]));
		varbuf_add_str(vb, "</td></tr>\n");
	}
	varbuf_add_str(vb, "</table>\n");
	html_list(vb, report, "fix", 2, "What to fix", "fix", "Nothing.");
	html_list(vb, report, "loses", 2, "What the user loses",
	          "loses", "Nothing the conversion reported.");
	varbuf_add_str(vb, "<section id=\"steps\"><h2>Steps</h2>\n");
	if (json_object_object_get_ex(report, "steps", &steps))
		for (i = 0; i < json_object_array_length(steps); i++) {
			struct json_object *s =
				json_object_array_get_idx(steps, i);
			struct json_object *tool;

			varbuf_add_str(vb, "<article class=\"step\"><h3>");
			html_text(vb, member(s, "step"));
			varbuf_add_str(vb, ": <span class=\"");
			html_text(vb, member(s, "verdict"));
			varbuf_add_str(vb, "\">");
			html_text(vb, member(s, "verdict"));
			varbuf_add_str(vb, "</span></h3>\n<p><code>");
			html_text(vb, member(s, "command"));
			varbuf_add_str(vb, "</code></p>\n");
			html_list(vb, s, "reasons", 4, "Reasons", NULL,
			          "None.");
			varbuf_add_str(vb, "<details><summary>Output</summary><pre>");
			html_text(vb, member(s, "output"));
			varbuf_add_str(vb, "</pre></details>\n");
			if (json_object_object_get_ex(s, "report", &tool) &&
			    tool != NULL) {
				varbuf_add_str(vb, "<details><summary>Report"
				               "</summary><pre>");
				html_text(vb, json_object_to_json_string_ext(
					tool, JSON_C_TO_STRING_PRETTY |
					JSON_C_TO_STRING_NOSLASHESCAPE));
				varbuf_add_str(vb, "</pre></details>\n");
			}
			varbuf_add_str(vb, "</article>\n");
		}
	varbuf_add_str(vb, "</section>\n</body>\n</html>\n");
}

int
report_write(struct json_object *report, const char *json_path,
             const char *html_path, struct dpkg_error *err)
{
	const char *text = json_object_to_json_string_ext(report,
		JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
	struct varbuf vb = VARBUF_INIT;
	int ret;

	if (store_file_write(json_path, text, strlen(text), err) < 0)
		return -1;
	html_page(&vb, report);
	ret = store_file_write(html_path, vb.buf, vb.used, err);
	varbuf_destroy(&vb);
	return ret;
}
