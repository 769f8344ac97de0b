// SPDX-License-Identifier: MIT
/*
 * json-event.c - EventHeader events as JSON, rendered as the reference
 * decoder does (see json-event.h for the shape, json-values.h for values)
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/ehd-bytes.h"
#include "formats/json/json-event.h"
#include "model/json-values.h"

/* ---- values ---- */

/* A @size-byte unsigned value; @swap: not in host byte order. */
static uint64_t load(const uint8_t *p, unsigned int size, int swap)
{
	return ehd__load_uint(p, size, ehd__host_big() ^ !!swap);
}

static int64_t sign_extend(uint64_t v, unsigned int size)
{
	unsigned int shift = 64 - 8 * size;

	return (int64_t)(v << shift) >> shift;
}

/*
 * The value sizes a fixed-size format can show, as a bit mask of sizes
 * (bit n: n bytes); 0 for the other formats. These formats also make
 * counted fields nullable.
 */
static uint32_t format_sizes(uint8_t format)
{
	switch (format) {
	case EH_FMT_UNSIGNED_INT:
	case EH_FMT_SIGNED_INT:
	case EH_FMT_HEX_INT:
		return 1u << 1 | 1u << 2 | 1u << 4 | 1u << 8;
	case EH_FMT_ERRNO:
	case EH_FMT_PID:
		return 1u << 4;
	case EH_FMT_TIME:
	case EH_FMT_FLOAT:
		return 1u << 4 | 1u << 8;
	case EH_FMT_BOOLEAN:
		return 1u << 1 | 1u << 2 | 1u << 4;
	case EH_FMT_UUID:
		return 1u << 16;
	case EH_FMT_PORT:
		return 1u << 2;
	case EH_FMT_IP_ADDRESS:
	case EH_FMT_IP_ADDRESS_OBSOLETE:
		return 1u << 4 | 1u << 16;
	default:
		return 0;
	}
}

/* Formats that show bytes as text. */
static int text_format(uint8_t format)
{
	return format == EH_FMT_STRING8 || format == EH_FMT_STRING_UTF ||
	       format == EH_FMT_STRING_UTF_BOM || format == EH_FMT_STRING_XML ||
	       format == EH_FMT_STRING_JSON;
}

/* A fixed-size value of @size bytes (1, 2, 4, 8 or 16) in @format. */
static void render_fixed(struct ehd_buf *b, const uint8_t *p, unsigned int size,
			 uint8_t format, int swap, unsigned int flags)
{
	uint64_t v = size <= 8 ? load(p, size, swap) : 0;

	if (size == 16) {
		if (format == EH_FMT_UUID)
			ehd__json_uuid(b, p, flags);
		else if (format == EH_FMT_IP_ADDRESS ||
			 format == EH_FMT_IP_ADDRESS_OBSOLETE)
			ehd__json_ipv6(b, p, flags);
		else
			ehd__json_hex_bytes(b, p, 16, flags);
		return;
	}
	switch (format) {
	case EH_FMT_SIGNED_INT:
		ehd__json_i64(b, sign_extend(v, size));
		return;
	case EH_FMT_HEX_INT:
		ehd__json_hex(b, v, size, flags);
		return;
	case EH_FMT_ERRNO:
		if (size == 4) {
			ehd__json_errno(b, (int32_t)v, flags);
			return;
		}
		break;
	case EH_FMT_PID:
		if (size == 4) {
			ehd__json_i64(b, (int32_t)v);
			return;
		}
		break;
	case EH_FMT_TIME:
		if (size == 4 || size == 8) {
			ehd__json_time(b, sign_extend(v, size), flags);
			return;
		}
		break;
	case EH_FMT_BOOLEAN:
		if (size <= 4) {
			ehd__json_bool(b, (int32_t)(uint32_t)v);
			return;
		}
		break;
	case EH_FMT_FLOAT:
		if (size == 4) {
			uint32_t bits = (uint32_t)v;
			float f;

			memcpy(&f, &bits, 4);
			ehd__json_float(b, f, flags);
			return;
		}
		if (size == 8) {
			double d;

			memcpy(&d, &v, 8);
			ehd__json_double(b, d, flags);
			return;
		}
		break;
	case EH_FMT_HEX_BYTES:
		ehd__json_hex_bytes(b, p, size, flags);
		return;
	case EH_FMT_STRING8:
		if (size == 1) {
			ehd__json_char(b, (uint32_t)v, flags);
			return;
		}
		break;
	case EH_FMT_STRING_UTF:
		if (size == 2 || size == 4) {
			ehd__json_char(b, (uint32_t)v, flags);
			return;
		}
		break;
	case EH_FMT_PORT:
		if (size == 2) {
			ehd__json_port(b, p);
			return;
		}
		break;
	case EH_FMT_IP_ADDRESS:
	case EH_FMT_IP_ADDRESS_OBSOLETE:
		if (size == 4) {
			ehd__json_ipv4(b, p, flags);
			return;
		}
		break;
	default:
		break;
	}
	ehd__json_u64(b, v);
}

/* Text of @size bytes in @unit-byte units, in @format. */
static void render_text(struct ehd_buf *b, const uint8_t *p, size_t size,
			unsigned int unit, uint8_t format, int swap,
			unsigned int flags)
{
	switch (format) {
	case EH_FMT_HEX_BYTES:
		ehd__json_hex_bytes(b, p, size, flags);
		return;
	case EH_FMT_STRING8:
		if (unit == 1) {
			ehd__json_latin1(b, p, size, flags);
			return;
		}
		break;
	case EH_FMT_STRING_UTF_BOM:
	case EH_FMT_STRING_XML:
	case EH_FMT_STRING_JSON:
		ehd__json_utf_bom(b, p, size, unit, swap, flags);
		return;
	default:
		break;
	}
	if (unit == 1)
		ehd__json_utf8(b, p, size, flags);
	else if (unit == 2)
		ehd__json_utf16(b, p, size, swap, flags);
	else
		ehd__json_utf32(b, p, size, swap, flags);
}

void ehd__item_value(struct ehd_buf *b, const struct ehd_item *it,
		     unsigned int flags)
{
	const uint8_t *p = it->value;
	size_t n = it->value_size;

	switch (it->encoding) {
	case EH_ENC_VALUE8:
	case EH_ENC_VALUE16:
	case EH_ENC_VALUE32:
	case EH_ENC_VALUE64:
	case EH_ENC_VALUE128:
		render_fixed(b, p, (unsigned int)n,
			     it->format ? it->format :
			     it->encoding == EH_ENC_VALUE128 ? EH_FMT_HEX_BYTES :
			     EH_FMT_UNSIGNED_INT, it->swap, flags);
		return;
	case EH_ENC_ZSTRING_CHAR8:
		render_text(b, p, n, 1, it->format, it->swap, flags);
		return;
	case EH_ENC_ZSTRING_CHAR16:
	case EH_ENC_STRING_LENGTH16_CHAR16:
		render_text(b, p, n, 2, it->format, it->swap, flags);
		return;
	case EH_ENC_ZSTRING_CHAR32:
	case EH_ENC_STRING_LENGTH16_CHAR32:
		render_text(b, p, n, 4, it->format, it->swap, flags);
		return;
	case EH_ENC_STRING_LENGTH16_CHAR8:
	case EH_ENC_BINARY_LENGTH16_CHAR8:
		/* Nullable: with a fixed-size format, length 0 is null and
		 * a length that fits is that value; else the default. */
		if (format_sizes(it->format)) {
			if (!n) {
				ehd__buf_puts(b, "null");
				return;
			}
			if (n <= 16 && (format_sizes(it->format) >> n & 1)) {
				render_fixed(b, p, (unsigned int)n, it->format,
					     it->swap, flags);
				return;
			}
		}
		if (it->encoding == EH_ENC_STRING_LENGTH16_CHAR8 ||
		    text_format(it->format))
			render_text(b, p, n, 1, it->format, it->swap, flags);
		else
			ehd__json_hex_bytes(b, p, n, flags);
		return;
	default:
		ehd__json_hex_bytes(b, p, n, flags);
		return;
	}
}

void ehd__json_item_value(struct ehd_buf *b, const struct ehd_item *it)
{
	ehd__item_value(b, it, EHD__JSON);
}

/* ---- structure ---- */

struct writer {
	struct ehd_buf *b;
	unsigned int flags;
	int depth;
	unsigned char first[2 * EHD_STRUCT_DEPTH_MAX + 4];
	unsigned char in_array[2 * EHD_STRUCT_DEPTH_MAX + 4];
};

static void sep(struct writer *w)
{
	bool first = w->first[w->depth];

	w->first[w->depth] = 0;
	if (w->flags & EHD__JF_TEXT) {
		/* name=v name=v, [v,v], {name=v name=v}; a field of the
		 * event itself follows what is before it with a space */
		if (w->in_array[w->depth]) {
			if (!first)
				ehd__buf_putc(w->b, ',');
		} else if (!first || !w->depth) {
			ehd__buf_putc(w->b, ' ');
		}
		return;
	}
	if (!first)
		ehd__buf_putc(w->b, ',');
	if (w->flags & EHD__JF_SPACE)
		ehd__buf_putc(w->b, ' ');
}

static void key(struct writer *w, const char *name, size_t len, uint16_t tag)
{
	if (!(w->flags & EHD__JF_FIELD_TAGS))
		tag = 0;
	if (!(w->flags & EHD__JF_TEXT)) {
		ehd__json_key(w->b, name, len, tag, w->flags & EHD__JF_SPACE);
		return;
	}
	ehd__buf_put(w->b, name, len);
	if (tag) {
		ehd__buf_puts(w->b, ";tag=");
		ehd__json_hex(w->b, tag, 8, 0);
	}
	ehd__buf_putc(w->b, '=');
}

static void field_key(struct writer *w, const struct ehd_item *it)
{
	if (!w->in_array[w->depth])
		key(w, it->name, strlen(it->name), it->tag);
}

static void w_open(struct writer *w, char c, int array)
{
	ehd__buf_putc(w->b, c);
	w->depth++;
	w->first[w->depth] = 1;
	w->in_array[w->depth] = (unsigned char)array;
}

static void w_close(struct writer *w, char c)
{
	if (w->flags & EHD__JF_SPACE)
		ehd__buf_putc(w->b, ' ');
	ehd__buf_putc(w->b, c);
	w->depth--;
}

static void put_hex_meta(struct writer *w, const char *name, uint64_t v)
{
	sep(w);
	key(w, name, strlen(name), 0);
	ehd__json_hex(w->b, v, 8, EHD__JSON);
}

static void put_int_meta(struct writer *w, const char *name, long long v)
{
	sep(w);
	key(w, name, strlen(name), 0);
	ehd__json_i64(w->b, v);
}

/* A string member, left out when @v is NULL. */
static void put_str_meta(struct writer *w, const char *name, const char *v)
{
	if (!v)
		return;
	sep(w);
	key(w, name, strlen(name), 0);
	ehd__buf_putc(w->b, '"');
	ehd__json_escape(w->b, v, strlen(v));
	ehd__buf_putc(w->b, '"');
}

/* The date and time of second @t, from @c when it was the last one. */
static void put_time(struct ehd_buf *b, int64_t t,
		     struct ehd__json_time_cache *c)
{
	size_t at = b->len;

	if (c && c->sec == t) {
		ehd__buf_put(b, c->text, c->len);
		return;
	}
	ehd__json_time(b, t, 0);
	if (c && b->len - at < sizeof(c->text) && !b->err) {
		c->sec = t;
		c->len = b->len - at;
		memcpy(c->text, b->p + at, c->len);
	}
}

/* Frames kept on the stack; a deeper stack takes them from the heap. */
#define FRAMES_ON_STACK 256

/* The last path component of @path. */
static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

/*
 * "stack": [frame, ...], innermost first, each "MODULE+0xOFFSET" (the
 * file's own numbering, as addr2line takes it) followed by " SYMBOL+0xOFF"
 * when the function is known, or "0xADDRESS" when no mapping holds it.
 */
static void put_stack(struct writer *w, const struct ehd_event *ev)
{
	struct ehd_frame local[FRAMES_ON_STACK], *f = local;
	int n, i;

	/* Every frame: a chain holds at most callchain_count of them. */
	if (ev->callchain_count > FRAMES_ON_STACK) {
		f = malloc(ev->callchain_count * sizeof(*f));
		if (!f) {
			w->b->err = -ENOMEM;
			return;
		}
	}
	n = ehd_event_frames(ev, f, f == local ? FRAMES_ON_STACK :
						   ev->callchain_count);

	sep(w);
	key(w, "stack", 5, 0);
	w_open(w, '[', 1);
	for (i = 0; i < n; i++) {
		sep(w);
		ehd__buf_putc(w->b, '"');
		if (f[i].module) {
			const char *m = base_name(f[i].module);

			ehd__json_escape(w->b, m, strlen(m));
			ehd__buf_printf(w->b, "+0x%llx",
					(unsigned long long)f[i].offset);
		} else {
			ehd__buf_printf(w->b, "0x%llx",
					(unsigned long long)f[i].ip);
		}
		if (f[i].symbol) {
			ehd__buf_putc(w->b, ' ');
			ehd__json_escape(w->b, f[i].symbol,
					 strlen(f[i].symbol));
			ehd__buf_printf(w->b, "+0x%llx",
					(unsigned long long)f[i].symbol_offset);
		}
		ehd__buf_putc(w->b, '"');
	}
	w_close(w, ']');
	if (f != local)
		free(f);
}

/* Identity meta bits shown for an event that is not EventHeader. */
#define IDENTITY_META (EHD_META_ID | EHD_META_VERSION | EHD_META_LEVEL | \
		       EHD_META_KEYWORD | EHD_META_OPCODE | EHD_META_TAG | \
		       EHD_META_ACTIVITY | EHD_META_RELATED_ACTIVITY)

/* Does @ev (not EventHeader: nettrace, Heph) carry any identity? */
static bool has_identity(const struct ehd_event *ev)
{
	return ev && (ev->id || ev->version || ev->level || ev->keyword ||
		      ev->opcode || ev->tag || ev->activity_id ||
		      ev->related_id);
}

/*
 * The identity of an event that is not EventHeader (a .NET event read
 * from nettrace carries one), in the members EventHeader events use.
 */
static void put_identity(struct writer *w, const struct ehd_event *ev,
			 unsigned int meta)
{
	if (ev->id && (meta & EHD_META_ID))
		put_int_meta(w, "id", ev->id);
	if (ev->version && (meta & EHD_META_VERSION))
		put_int_meta(w, "version", ev->version);
	if (ev->level && (meta & EHD_META_LEVEL))
		put_int_meta(w, "level", ev->level);
	if (ev->keyword && (meta & EHD_META_KEYWORD))
		put_hex_meta(w, "keyword", ev->keyword);
	if (ev->opcode && (meta & EHD_META_OPCODE))
		put_int_meta(w, "opcode", ev->opcode);
	if (ev->tag && (meta & EHD_META_TAG))
		put_hex_meta(w, "tag", ev->tag);
	if (ev->activity_id && (meta & EHD_META_ACTIVITY)) {
		sep(w);
		key(w, "activity", 8, 0);
		ehd__json_uuid(w->b, ev->activity_id, EHD__JSON);
	}
	if (ev->related_id && (meta & EHD_META_RELATED_ACTIVITY)) {
		sep(w);
		key(w, "relatedActivity", 15, 0);
		ehd__json_uuid(w->b, ev->related_id, EHD__JSON);
	}
}

static void put_meta(struct writer *w, const struct ehd_event_info *info,
		     const struct ehd__json_context *ctx, unsigned int meta)
{
	const struct eh_header *h = info ? &info->header : NULL;
	const struct ehd_event *ev = ctx ? ctx->ev : NULL;
	unsigned int has = ev ? ev->context : 0;

	sep(w);
	key(w, "meta", 4, 0);
	w_open(w, '{', 0);
	if ((has & EHD_CTX_TIME) && (meta & EHD_META_TIME)) {
		sep(w);
		key(w, "time", 4, 0);
		if (has & EHD_CTX_TIME_UTC) {
			ehd__buf_putc(w->b, '"');
			put_time(w->b, (int64_t)(ev->time / 1000000000),
				 ctx->cache);
			ehd__json_nanoseconds(w->b,
					      (uint32_t)(ev->time % 1000000000));
			ehd__buf_put(w->b, "Z\"", 2);
		} else {
			ehd__json_u64(w->b, ev->time / 1000000000);
			ehd__json_nanoseconds(w->b,
					      (uint32_t)(ev->time % 1000000000));
		}
	}
	if ((has & EHD_CTX_CPU) && (meta & EHD_META_CPU))
		put_int_meta(w, "cpu", ev->cpu);
	if ((has & EHD_CTX_PID) && (meta & EHD_META_PID))
		put_int_meta(w, "pid", ev->pid);
	if ((has & EHD_CTX_PID) && (meta & EHD_META_TID))
		put_int_meta(w, "tid", ev->tid);
	if ((has & EHD_CTX_PID) && (meta & EHD_META_COMM)) {
		put_str_meta(w, "comm", ev->comm);
		put_str_meta(w, "process", ev->process);
	}
	if ((has & EHD_CTX_CALLCHAIN) && (meta & EHD_META_STACK))
		put_stack(w, ev);
	if (!info) {
		if (ev)
			put_identity(w, ev, meta);
		w_close(w, '}');
		return;
	}
	if (meta & EHD_META_PROVIDER) {
		sep(w);
		key(w, "provider", 8, 0);
		ehd__json_string(w->b, info->tracepoint, info->provider_len);
	}
	if (meta & EHD_META_EVENT) {
		sep(w);
		key(w, "event", 5, 0);
		ehd__json_string(w->b, info->name, strlen(info->name));
	}
	if (h->id && (meta & EHD_META_ID))
		put_int_meta(w, "id", h->id);
	if (h->version && (meta & EHD_META_VERSION))
		put_int_meta(w, "version", h->version);
	if (h->level && (meta & EHD_META_LEVEL))
		put_int_meta(w, "level", h->level);
	if (info->keyword && (meta & EHD_META_KEYWORD))
		put_hex_meta(w, "keyword", info->keyword);
	if (h->opcode && (meta & EHD_META_OPCODE))
		put_int_meta(w, "opcode", h->opcode);
	if (h->tag && (meta & EHD_META_TAG))
		put_hex_meta(w, "tag", h->tag);
	if (info->activity_id && (meta & EHD_META_ACTIVITY)) {
		sep(w);
		key(w, "activity", 8, 0);
		ehd__json_uuid(w->b, info->activity_id, EHD__JSON);
	}
	if (info->related_id && (meta & EHD_META_RELATED_ACTIVITY)) {
		sep(w);
		key(w, "relatedActivity", 15, 0);
		ehd__json_uuid(w->b, info->related_id, EHD__JSON);
	}
	if (info->options_len && (meta & EHD_META_OPTIONS)) {
		sep(w);
		key(w, "options", 7, 0);
		ehd__json_string(w->b, info->tracepoint + info->options,
				 info->options_len);
	}
	if (meta & EHD_META_FLAGS)
		put_hex_meta(w, "flags", h->flags);
	w_close(w, '}');
}

/* The items of @en as members; returns the enumerator's last state. */
static int render_items(struct writer *w, struct ehd_enum *en)
{
	int st;

	while ((st = ehd_enum_next(en)) > EHD_STATE_BEFORE_FIRST) {
		const struct ehd_item *it = ehd_enum_item(en);

		switch (st) {
		case EHD_STATE_VALUE:
			sep(w);
			field_key(w, it);
			ehd__json_item_value(w->b, it);
			break;
		case EHD_STATE_ARRAY_BEGIN:
			sep(w);
			field_key(w, it);
			w_open(w, '[', 1);
			break;
		case EHD_STATE_STRUCT_BEGIN:
			sep(w);
			field_key(w, it);
			w_open(w, '{', 0);
			break;
		case EHD_STATE_ARRAY_END:
			w_close(w, ']');
			break;
		case EHD_STATE_STRUCT_END:
			w_close(w, '}');
			break;
		}
	}
	return st;
}

/*
 * One event object: "n" ("@prov:@name", or "@name" when @prov_len is 0),
 * the fields of @en, then "meta" (for an event without EventHeader
 * identity, only its context).
 */
static int json_object(struct ehd_buf *b, struct ehd_enum *en,
		       const char *prov, size_t prov_len, const char *name,
		       size_t name_len, const struct ehd__json_context *ctx,
		       unsigned int flags, unsigned int meta)
{
	const struct ehd_event_info *info = ehd_enum_event(en);
	size_t start = b->len;
	struct writer w;
	int st;

	memset(&w, 0, sizeof(w));
	w.b = b;
	w.flags = flags;
	if (flags & EHD__JF_SPACE)
		ehd__buf_putc(b, ' ');
	ehd__buf_putc(b, '{');
	w.first[0] = 1;
	if (meta & EHD_META_N) {
		sep(&w);
		key(&w, "n", 1, 0);
		ehd__buf_putc(b, '"');
		if (prov_len) {
			ehd__json_escape(b, prov, prov_len);
			ehd__buf_putc(b, ':');
		}
		ehd__json_escape(b, name, name_len);
		ehd__buf_putc(b, '"');
	}
	st = render_items(&w, en);
	if (st < 0) {
		b->len = start;
		if (b->p)
			b->p[start] = 0;
		return st;
	}
	if (meta & (info ? ~(EHD_META_N | EHD_META_COMMON) :
		    (EHD_META_TIME | EHD_META_CPU | EHD_META_PID |
		     EHD_META_TID | EHD_META_COMM | EHD_META_STACK |
		     (has_identity(ctx ? ctx->ev : NULL) ? IDENTITY_META : 0))))
		put_meta(&w, info, ctx, meta);
	if (flags & EHD__JF_SPACE)
		ehd__buf_putc(b, ' ');
	ehd__buf_putc(b, '}');
	return b->err;
}

int ehd__fields(struct ehd_buf *b, struct ehd_enum *en, unsigned int flags)
{
	struct writer w;

	memset(&w, 0, sizeof(w));
	w.b = b;
	w.flags = flags;
	w.first[0] = 1;
	return render_items(&w, en);
}

int ehd__json_event(struct ehd_buf *b, struct ehd_enum *en,
		    const struct ehd__json_context *ctx, unsigned int flags,
		    unsigned int meta)
{
	const struct ehd_event_info *info = ehd_enum_event(en);

	if (!info)
		return -EINVAL;
	return json_object(b, en, info->tracepoint, info->provider_len,
			   info->name, info->name_len, ctx, flags, meta);
}

int ehd__json_tracefs_event(struct ehd_buf *b, const char *system,
			    size_t system_len, const char *name,
			    size_t name_len, struct ehd_enum *en,
			    const struct ehd__json_context *ctx,
			    unsigned int flags, unsigned int meta)
{
	return json_object(b, en, system, system_len, name, name_len, ctx,
			   flags, meta);
}

void ehd__event_time(struct ehd_buf *b, const struct ehd_event *ev)
{
	uint64_t s = ev->time / 1000000000, ns = ev->time % 1000000000;

	if (!(ev->context & EHD_CTX_TIME))
		return;
	if (ev->context & EHD_CTX_TIME_UTC)
		ehd__json_time(b, (int64_t)s, 0);
	else
		ehd__json_u64(b, s);
	ehd__json_nanoseconds(b, (uint32_t)ns);
	if (ev->context & EHD_CTX_TIME_UTC)
		ehd__buf_putc(b, 'Z');
}
