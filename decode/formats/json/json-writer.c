// SPDX-License-Identifier: MIT
/*
 * json-writer.c - events as one JSON document, the shape of the
 * reference decoder's output ({ "source": [ event, ... ], ... }), or as
 * JSON lines (one event object per line); the events themselves are
 * rendered by json-event.c
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ehdecode/enumerator.h>

#include "formats/json/json-event.h"
#include "formats/output.h"
#include "model/json-values.h"

static int json_create(struct ehd__out *o)
{
	struct ehd__json_time_cache *cache = calloc(1, sizeof(*cache));

	if (!cache)
		return -ENOMEM;
	cache->sec = INT64_MIN;
	o->state = cache;
	return 0;
}

static void json_destroy(struct ehd__out *o)
{
	free(o->state);
}

/* One event object; < 0 with nothing added when its data are damaged. */
static int render(struct ehd__out *o, const struct ehd_event *ev,
		  struct ehd_enum *en)
{
	struct ehd__json_context ctx = { ev, o->state };
	unsigned int jflags = ehd__json_flags(o->flags);

	if (ehd_enum_event(en))
		return ehd__json_event(o->buf, en, &ctx, jflags, o->meta);
	return ehd__json_tracefs_event(o->buf, ev->provider, ev->provider_len,
				       ev->name, ev->name_len, en, &ctx,
				       jflags, o->meta);
}

/* ---- the document ---- */

static int document_create(struct ehd__out *o)
{
	if (o->flags & EHD_WRITER_BOM)
		ehd__buf_puts(o->buf, "\xEF\xBB\xBF");
	ehd__buf_putc(o->buf, '{');
	return json_create(o);
}

/* Each source is a member: its name, an array of its events. */
static int document_begin(struct ehd__out *o, const char *name,
			  const struct ehd_trace_info *info)
{
	ehd__buf_puts(o->buf, o->sources ? ",\n\"" : "\n\"");
	ehd__json_escape(o->buf, name, strlen(name));
	ehd__buf_puts(o->buf, "\": [");
	return 0;
}

static int document_event(struct ehd__out *o, const struct ehd_event *ev,
			  struct ehd_enum *en, const char **why,
			  uint64_t *where)
{
	size_t at = o->buf->len;
	int err;

	ehd__buf_puts(o->buf, o->source_events ? ",\n " : "\n ");
	err = render(o, ev, en);
	if (err)
		o->buf->len = at;
	return err;
}

static int document_end(struct ehd__out *o)
{
	ehd__buf_puts(o->buf, " ]");
	return 0;
}

static int document_close(struct ehd__out *o,
			  const struct ehd_writer_stats *st)
{
	ehd__buf_puts(o->buf, "\n}\n");
	return 0;
}

const struct ehd__output_ops ehd__json_output = {
	.name = "json", .format = EHD_OUT_JSON, .caps = EHD__OUT_UTF8_OPT,
	.create = document_create, .destroy = json_destroy,
	.begin = document_begin, .event = document_event, .end = document_end,
	.close = document_close,
};

/* ---- JSON lines ---- */

static int lines_event(struct ehd__out *o, const struct ehd_event *ev,
		       struct ehd_enum *en, const char **why, uint64_t *where)
{
	int err = render(o, ev, en);

	if (!err)
		ehd__buf_putc(o->buf, '\n');
	return err;
}

const struct ehd__output_ops ehd__jsonl_output = {
	.name = "jsonl", .format = EHD_OUT_JSONL, .caps = EHD__OUT_UTF8_OPT,
	.create = json_create, .destroy = json_destroy, .event = lines_event,
};
