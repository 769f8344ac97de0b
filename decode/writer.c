// SPDX-License-Identifier: MIT
/*
 * writer.c - events written as a JSON document, JSON lines, text,
 * nettrace (nettrace-writer.c), Chrome trace JSON (chrome-writer.c) or a
 * Heph trace (heph-writer.c)
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <ehdecode/writer.h>

#include "formats/chrome/chrome-writer.h"
#include "core/ehd-buf.h"
#include "model/enumerator-int.h"
#include "model/event-int.h"
#include "formats/heph/heph-writer.h"
#include "formats/json/json-event.h"
#include "model/json-values.h"
#include "formats/nettrace/nettrace-writer.h"
#include "formats/text/text-event.h"
#include "core/utf8.h"

/* Write the buffer out once it holds this much. */
#define FLUSH_AT (256u * 1024)

struct ehd_writer {
	int format;
	int fd;
	unsigned int flags;
	unsigned int meta;
	unsigned int jflags;	/* EHD__JF_* */
	struct ehd_enum *en;
	struct ehd__ntw *nt;	/* EHD_OUT_NETTRACE */
	struct ehd__chrome *ch;	/* EHD_OUT_CHROME */
	struct ehd__hephw *heph;	/* EHD_OUT_HEPH */
	struct ehd__json_time_cache time_cache;
	struct ehd_buf out;
	bool in_source;
	bool closed;
	uint64_t sources;
	uint64_t events;	/* in the current source */
	uint64_t events_total;
	uint64_t bytes_total;
	int write_err;
	bool utf8_fix;		/* text out: make it well-formed UTF-8 */
	uint64_t utf8_replaced;
	uint64_t trailing;	/* ehd_writer_stats' */
	uint64_t fields_cut;
	uint64_t lost;

	uint64_t err_off;
	char err_msg[320];
	bool has_err;
};

static const struct {
	const char *name;
	unsigned int bits;
} meta_names[] = {
	{ "n", EHD_META_N },
	{ "time", EHD_META_TIME },
	{ "cpu", EHD_META_CPU },
	{ "pid", EHD_META_PID },
	{ "tid", EHD_META_TID },
	{ "id", EHD_META_ID },
	{ "version", EHD_META_VERSION },
	{ "level", EHD_META_LEVEL },
	{ "keyword", EHD_META_KEYWORD },
	{ "opcode", EHD_META_OPCODE },
	{ "tag", EHD_META_TAG },
	{ "activity", EHD_META_ACTIVITY },
	{ "relatedActivity", EHD_META_RELATED_ACTIVITY },
	{ "provider", EHD_META_PROVIDER },
	{ "event", EHD_META_EVENT },
	{ "options", EHD_META_OPTIONS },
	{ "flags", EHD_META_FLAGS },
	{ "common", EHD_META_COMMON },
	{ "default", EHD_META_DEFAULT },
	{ "comm", EHD_META_COMM },
	{ "stack", EHD_META_STACK },
	{ "all", EHD_META_ALL },
	{ "none", 0 },
};

EHD_API int ehd_meta_parse(const char *list, unsigned int *meta)
{
	unsigned int bits = 0;
	const char *p = list;

	for (;;) {
		size_t n = strcspn(p, ","), i;

		for (i = 0; i < sizeof(meta_names) / sizeof(meta_names[0]); i++)
			if (strlen(meta_names[i].name) == n &&
			    !strncasecmp(p, meta_names[i].name, n))
				break;
		if (i == sizeof(meta_names) / sizeof(meta_names[0]))
			return -EINVAL;
		bits |= meta_names[i].bits;
		if (!p[n])
			break;
		p += n + 1;
	}
	*meta = bits;
	return 0;
}

static bool format_known(int format)
{
	switch (format) {
	case EHD_OUT_JSON:
	case EHD_OUT_JSONL:
	case EHD_OUT_TEXT:
	case EHD_OUT_NETTRACE:
	case EHD_OUT_HEPH:
	case EHD_OUT_CHROME:
		return true;
	default:
		return false;
	}
}

EHD_API struct ehd_writer *ehd_writer_new(int format, int fd,
					  unsigned int flags,
					  unsigned int meta)
{
	struct ehd_writer *w;

	if (!format_known(format) || fd < 0 ||
	    (flags & ~(EHD_WRITER_SPACE | EHD_WRITER_FIELD_TAGS |
		       EHD_WRITER_BOM | EHD_WRITER_UTF8_STRICT)) ||
	    (meta & ~EHD_META_ALL)) {
		errno = EINVAL;
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->en = ehd_enum_new();
	if (!w->en) {
		free(w);
		errno = ENOMEM;
		return NULL;
	}
	if ((format == EHD_OUT_NETTRACE && ehd__ntw_new(&w->nt, fd)) ||
	    (format == EHD_OUT_CHROME && ehd__chrome_new(&w->ch, &w->out)) ||
	    (format == EHD_OUT_HEPH && ehd__hephw_new(&w->heph))) {
		ehd_writer_free(w);
		errno = ENOMEM;
		return NULL;
	}
	w->time_cache.sec = INT64_MIN;
	w->utf8_fix = format == EHD_OUT_CHROME ||
		      ((flags & EHD_WRITER_UTF8_STRICT) &&
		       (format == EHD_OUT_JSON || format == EHD_OUT_JSONL ||
			format == EHD_OUT_TEXT));
	w->format = format;
	w->fd = fd;
	w->flags = flags;
	w->meta = meta;
	if (flags & EHD_WRITER_SPACE)
		w->jflags |= EHD__JF_SPACE;
	if (flags & EHD_WRITER_FIELD_TAGS)
		w->jflags |= EHD__JF_FIELD_TAGS;
	if (format == EHD_OUT_JSON) {
		if (flags & EHD_WRITER_BOM)
			ehd__buf_puts(&w->out, "\xEF\xBB\xBF");
		ehd__buf_putc(&w->out, '{');
	}
	return w;
}

EHD_API void ehd_writer_free(struct ehd_writer *w)
{
	if (!w)
		return;
	ehd_enum_free(w->en);
	ehd__ntw_free(w->nt);
	ehd__chrome_free(w->ch);
	ehd__hephw_free(w->heph);
	ehd__buf_free(&w->out);
	free(w);
}

/* Write the buffer out (all of it when @all, else once it is large). */
static int flush(struct ehd_writer *w, bool all)
{
	size_t done = 0;

	if (w->out.err && !w->write_err)
		w->write_err = w->out.err;
	if (w->write_err)
		return w->write_err;
	if (!all && w->out.len < FLUSH_AT)
		return 0;
	/* Whole events: no UTF-8 sequence runs on past the buffer's end. */
	if (w->utf8_fix)
		w->utf8_replaced += ehd__utf8_fix(&w->out, 0);
	while (done < w->out.len) {
		ssize_t n = write(w->fd, w->out.p + done, w->out.len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			w->write_err = -errno;
			return w->write_err;
		}
		done += (size_t)n;
	}
	w->bytes_total += w->out.len;
	w->out.len = 0;
	return 0;
}

EHD_API int ehd_writer_flush(struct ehd_writer *w)
{
	if (w->nt)
		return 0;	/* windows go out when full, and at the close */
	return flush(w, true);
}

EHD_API int ehd_writer_begin(struct ehd_writer *w, const char *name)
{
	return ehd_writer_begin_trace(w, name, NULL);
}

EHD_API int ehd_writer_begin_trace(struct ehd_writer *w, const char *name,
				   const struct ehd_trace_info *info)
{
	if (w->in_source || w->closed)
		return -EINVAL;
	w->in_source = true;
	w->events = 0;
	if (w->nt) {
		w->sources++;
		return ehd__ntw_begin(w->nt, name, info);
	}
	if (w->format == EHD_OUT_JSON) {
		ehd__buf_puts(&w->out, w->sources ? ",\n\"" : "\n\"");
		ehd__json_escape(&w->out, name, strlen(name));
		ehd__buf_puts(&w->out, "\": [");
	}
	w->sources++;
	return flush(w, false);
}

EHD_API int ehd_writer_end(struct ehd_writer *w)
{
	if (!w->in_source)
		return -EINVAL;
	w->in_source = false;
	if (w->format == EHD_OUT_JSON)
		ehd__buf_puts(&w->out, " ]");
	if (w->ch)
		ehd__chrome_end_source(w->ch, &w->out);
	if (w->heph)
		ehd__hephw_end(w->heph, &w->out);
	return flush(w, false);
}

static int render_as(struct ehd_writer *w, const struct ehd_event *ev)
{
	struct ehd__json_context ctx = { ev, &w->time_cache };
	int err;

	if (w->heph)
		return ehd__hephw_event(w->heph, ev, w->en, &w->out);
	if (w->format == EHD_OUT_TEXT)
		return ehd__text_event(&w->out, ev, w->en,
				       w->flags & EHD_WRITER_FIELD_TAGS);
	if (w->ch)
		return ehd__chrome_event(w->ch, &w->out, ev, w->en, w->jflags,
					 w->meta);
	if (ehd_enum_event(w->en))
		err = ehd__json_event(&w->out, w->en, &ctx, w->jflags, w->meta);
	else
		err = ehd__json_tracefs_event(&w->out, ev->provider,
					      ev->provider_len, ev->name,
					      ev->name_len, w->en, &ctx,
					      w->jflags, w->meta);
	if (!err && w->format == EHD_OUT_JSONL)
		ehd__buf_putc(&w->out, '\n');
	return err;
}

/*
 * Render @ev, its fields in w->en (started); < 0: damaged, nothing added.
 * What its record holds that the output cannot show is counted.
 */
static int render(struct ehd_writer *w, const struct ehd_event *ev)
{
	int err = render_as(w, ev);

	if (err)
		return err;
	if (ehd__enum_cut(w->en))
		w->fields_cut++;
	if (ev->kind == EHD_EVENT_EVENTHEADER &&
	    !(ev->internal && ev->internal->fields) && ehd__enum_extra(w->en))
		w->trailing++;
	return 0;
}

static void set_error(struct ehd_writer *w, const struct ehd_event *ev,
		      int err, const char *reason, uint64_t where)
{
	w->has_err = true;
	w->err_off = ev->source_offset;
	if (ev->internal && ev->internal->fields)	/* nettrace, Heph */
		snprintf(w->err_msg, sizeof(w->err_msg),
			 "event %.*s:%.*s: byte %llu of its payload: %s (written as bytes)",
			 (int)ev->provider_len, ev->provider,
			 (int)ev->name_len, ev->name, (unsigned long long)where,
			 reason ? reason : ehd_strerror(err));
	else
		snprintf(w->err_msg, sizeof(w->err_msg),
			 "tracepoint %.*s: byte %llu of its EventHeader data: %s",
			 (int)ev->tracepoint_len, ev->tracepoint,
			 (unsigned long long)where,
			 reason ? reason : ehd_strerror(err));
}

static int nettrace_event(struct ehd_writer *w, const struct ehd_event *ev)
{
	const char *why = NULL;
	uint64_t where = 0;
	int err;

	w->events++;
	err = ehd__ntw_event(w->nt, ev, w->en, &why, &where);
	if (err < 0 && why)
		set_error(w, ev, err, why, where);
	else if (!err && ev->decode_error)
		set_error(w, ev, err = ev->decode_error, ev->decode_reason,
			  ev->decode_offset);
	return err;
}

static int write_event(struct ehd_writer *w, const struct ehd_event *ev)
{
	unsigned int fflags = (w->meta & EHD_META_COMMON) ? EHD_FIELDS_COMMON : 0;
	int damage = 0, err;
	uint64_t where = 0;

	if (!w->in_source)
		return -EINVAL;
	w->has_err = false;
	if (w->nt)
		return nettrace_event(w, ev);
	if (w->format == EHD_OUT_JSON)
		ehd__buf_puts(&w->out, w->events ? ",\n " : "\n ");
	w->events++;
	w->events_total++;
	if (ev->decode_error) {
		damage = ev->decode_error;
		set_error(w, ev, damage, ev->decode_reason, ev->decode_offset);
	}
	err = ehd_event_fields(ev, w->en, fflags);
	if (!err)
		err = render(w, ev);
	if (err == -ENOMEM) {
		w->has_err = false;
		return -ENOMEM;
	}
	if (err < 0) {
		/* Damaged EventHeader data: show the record as it is. */
		struct ehd_event raw = *ev;

		damage = err;
		set_error(w, ev, err, ehd_enum_error(w->en, &where), where);
		raw.kind = ev->tep_event ? EHD_EVENT_TRACEFS : EHD_EVENT_RAW;
		if (ev->internal && ev->internal->fields)
			raw.internal = NULL;	/* nettrace: the payload's bytes */
		if (ev->record) {
			raw.data = ev->record;
			raw.size = ev->record_size;
		}
		err = ehd_event_fields(&raw, w->en, fflags);
		if (!err)
			err = render(w, &raw);
		if (err < 0) {
			w->has_err = false;	/* out of memory */
			return err;
		}
	}
	err = flush(w, false);
	if (err) {
		w->has_err = false;	/* the write failed: not a damage */
		return err;
	}
	return damage;
}

EHD_API int ehd_writer_event(struct ehd_writer *w, const struct ehd_event *ev)
{
	int err = write_event(w, ev);

	/*
	 * A failure that is not the event's (out of memory, a failed write):
	 * the output is lost, and ehd_writer_close() returns why.
	 */
	if (err < 0 && !w->has_err && err != -E2BIG && !w->write_err)
		w->write_err = err;
	return err;
}

EHD_API void ehd_writer_add_lost(struct ehd_writer *w, uint64_t n)
{
	w->lost += n;
	if (w->nt)
		ehd__ntw_add_lost(w->nt, n);
}

EHD_API int ehd_writer_close(struct ehd_writer *w)
{
	if (w->closed)
		return w->write_err;
	if (w->in_source)
		ehd_writer_end(w);
	if (w->nt) {
		w->closed = true;
		if (w->write_err)
			return w->write_err;
		return w->write_err = ehd__ntw_close(w->nt);
	}
	if (w->format == EHD_OUT_JSON)
		ehd__buf_puts(&w->out, "\n}\n");
	if (w->ch) {
		struct ehd_writer_stats st;

		/* The counts go in the document: all the events are in. */
		w->utf8_replaced += ehd__utf8_fix(&w->out, 0);
		ehd_writer_stats(w, &st);
		ehd__chrome_close(w->ch, &w->out, &st);
	}
	w->closed = true;
	return flush(w, true);
}

EHD_API void ehd_writer_stats(const struct ehd_writer *w,
			      struct ehd_writer_stats *stats)
{
	if (w->nt) {
		ehd__ntw_stats(w->nt, stats);
		return;
	}
	memset(stats, 0, sizeof(*stats));
	if (w->heph)
		ehd__hephw_stats(w->heph, stats);
	else
		stats->events = w->events_total;
	stats->bytes = w->bytes_total;
	if (w->ch)
		ehd__chrome_stats(w->ch, stats);
	if (w->utf8_fix)
		stats->utf8_replaced = w->utf8_replaced;
	stats->trailing = w->trailing;
	stats->fields_cut = w->fields_cut;
	stats->lost = w->lost;
}

EHD_API const char *ehd_writer_error(const struct ehd_writer *w,
				     uint64_t *offset)
{
	if (!w->has_err)
		return NULL;
	if (offset)
		*offset = w->err_off;
	return w->err_msg;
}
