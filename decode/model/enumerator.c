// SPDX-License-Identifier: MIT
/*
 * enumerator.c - the EventHeader enumerator
 *
 * ehd_enum_start() validates the header, the tracepoint name and the
 * extensions, then walks the metadata and the payload once, recording
 * every item in a vector that ehd_enum_next() replays. A damaged event
 * keeps the items found before the damage, followed by the error. The
 * vector is reused from event to event, so steady-state decoding does not
 * allocate. ehd_enum_start() fails only when the event cannot be
 * identified (header, tracepoint name, extensions, event name); damage in
 * the fields comes from ehd_enum_next() after the items before it.
 *
 * Events of one type come in runs: an enumerator remembers the last few
 * identities it worked out (the tracepoint name and the bytes from the
 * header to the payload, activity ids aside) and starts on an event whose
 * bytes are those of one of them without parsing its header, name and
 * extensions again. Each identity has a key unique in the process, which
 * lets a writer know an event type it has seen without comparing it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ehdecode/enumerator.h>

#include "core/ehd-bytes.h"
#include "model/enumerator-int.h"

/* Identities an enumerator remembers. */
#define IDS_MAX 8
/* Most bytes from the header to the payload of a remembered identity. */
#define ID_BYTES_MAX 512
/* Longest tracepoint name of a remembered identity. */
#define ID_TP_MAX 256

/*
 * An identity worked out by start(): the event's bytes before its
 * payload, with the contents of an activity id extension zeroed (they
 * differ from event to event), and where things are in them.
 */
struct ident {
	uint64_t key;		/* 0: unused */
	size_t tp_len;
	char tp_copy[ID_TP_MAX];	/* the tracepoint name */
	size_t len;		/* bytes: header to payload */
	size_t act_at, act_len;	/* activity ids, 0 when none */
	size_t name_at, meta_pos, meta_end;
	int swap;
	struct ehd_event_info info;	/* pointers not set */
	uint8_t bytes[ID_BYTES_MAX];
};

static uint64_t next_key;	/* atomic: keys are unique in the process */

struct ehd_enum_item {
	struct ehd_item item;
	uint8_t state;
};

/* ehd_enum.started */
enum {
	NOT_STARTED,
	STARTED,	/* identified; the fields are walked on first use */
	WALKED,		/* the item vector is complete */
	LIST,		/* items given by ehd__enum_add(), no EventHeader */
	LIST_EVENT,	/* items given by ehd__enum_add(), identity given */
};

struct ehd_enum {
	struct ehd_event_info info;
	int started;

	/* the event being walked */
	const uint8_t *data;
	size_t size;
	int swap;
	size_t meta_pos, meta_end;	/* offsets into data */
	size_t pos;			/* payload read position */
	size_t fields_meta, fields_pos;	/* meta_pos and pos after start() */
	unsigned int step_limit;

	/* the items found, then an optional error */
	struct ehd_enum_item *items;
	unsigned int count, cap;
	unsigned int next;
	int err;
	uint64_t err_offset;
	char reason[96];

	/* identities worked out before, newest at ids[last] */
	struct ident *ids;
	unsigned int last;
	uint64_t key;		/* of the event started on, 0 if none */
	unsigned int cut;	/* values left out or cut (ehd__enum_note_cut) */
};

static uint16_t get16(const struct ehd_enum *en, size_t off)
{
	uint16_t v;

	memcpy(&v, en->data + off, 2);
	return en->swap ? __builtin_bswap16(v) : v;
}

static int fail(struct ehd_enum *en, int err, size_t offset, const char *fmt,
		...) __attribute__((format(printf, 4, 5)));
static int fail(struct ehd_enum *en, int err, size_t offset, const char *fmt,
		...)
{
	va_list ap;

	if (en->err)
		return en->err;
	en->err = err;
	en->err_offset = offset;
	va_start(ap, fmt);
	vsnprintf(en->reason, sizeof(en->reason), fmt, ap);
	va_end(ap);
	return err;
}

static struct ehd_enum_item *push(struct ehd_enum *en, uint8_t state)
{
	struct ehd_enum_item *it;

	if (en->count >= en->step_limit) {
		fail(en, -E2BIG, en->pos, "more than %u items", en->step_limit);
		return NULL;
	}
	if (en->count == en->cap) {
		unsigned int cap = en->cap ? en->cap * 2 : 64;

		it = realloc(en->items, cap * sizeof(*it));
		if (!it) {
			fail(en, -ENOMEM, en->pos, "out of memory");
			return NULL;
		}
		en->items = it;
		en->cap = cap;
	}
	it = &en->items[en->count++];
	memset(it, 0, sizeof(*it));
	it->state = state;
	return it;
}

/* A field declaration as read from the metadata. */
struct decl {
	const char *name;
	size_t at;		/* its offset, for errors */
	uint8_t encoding;	/* without flags */
	uint8_t format;		/* without chain flag */
	uint8_t array_flags;
	uint16_t tag;
	uint16_t count;		/* constant array count */
};

static int read_decl(struct ehd_enum *en, struct decl *d)
{
	const uint8_t *m = en->data;
	size_t p = en->meta_pos, end = en->meta_end;
	const uint8_t *nul = memchr(m + p, 0, end - p);
	uint8_t enc, fmt = 0;

	d->at = p;
	if (!nul)
		return fail(en, -EBADMSG, p, "field name not terminated");
	d->name = (const char *)m + p;
	p = (size_t)(nul - m) + 1;
	if (p >= end)
		return fail(en, -EBADMSG, p, "field '%.40s' has no encoding",
			    d->name);
	enc = m[p++];
	if (enc & EH_ENC_CHAIN_FLAG) {
		if (p >= end)
			return fail(en, -EBADMSG, p, "field '%.40s': format missing",
				    d->name);
		fmt = m[p++];
	}
	d->tag = 0;
	if (fmt & EH_FMT_CHAIN_FLAG) {
		if (end - p < 2)
			return fail(en, -EBADMSG, p, "field '%.40s': tag missing",
				    d->name);
		d->tag = get16(en, p);
		p += 2;
	}
	d->encoding = enc & EH_ENC_VALUE_MASK;
	d->format = fmt & EH_FMT_VALUE_MASK;
	d->array_flags = enc & (EH_ENC_CARRAY_FLAG | EH_ENC_VARRAY_FLAG);
	d->count = 0;
	if (d->array_flags == (EH_ENC_CARRAY_FLAG | EH_ENC_VARRAY_FLAG))
		return fail(en, -ENOTSUP, d->at,
			    "field '%.40s': both array flags set", d->name);
	if (d->array_flags == EH_ENC_CARRAY_FLAG) {
		if (end - p < 2)
			return fail(en, -EBADMSG, p,
				    "field '%.40s': array count missing", d->name);
		d->count = get16(en, p);
		p += 2;
		if (!d->count)
			return fail(en, -EBADMSG, p - 2,
				    "field '%.40s': constant array of 0", d->name);
	}
	if (d->encoding == EH_ENC_INVALID || d->encoding >= EH_ENC_MAX)
		return fail(en, -ENOTSUP, d->at,
			    "field '%.40s': unknown encoding %u", d->name,
			    d->encoding);
	if (d->encoding == EH_ENC_STRUCT && d->format == 0)
		return fail(en, -EBADMSG, d->at,
			    "field '%.40s': struct of 0 fields", d->name);
	en->meta_pos = p;
	return 0;
}

/* Size of a fixed-size encoding, 0 for others. */
static uint8_t fixed_size(uint8_t encoding)
{
	switch (encoding) {
	case EH_ENC_VALUE8:
		return 1;
	case EH_ENC_VALUE16:
		return 2;
	case EH_ENC_VALUE32:
		return 4;
	case EH_ENC_VALUE64:
		return 8;
	case EH_ENC_VALUE128:
		return 16;
	default:
		return 0;
	}
}

/*
 * Read one value of @d at the payload position: its bytes (without a
 * count or terminator) go to @it. Returns 0 or an error.
 */
static int read_value(struct ehd_enum *en, const struct decl *d,
		      struct ehd_item *it)
{
	size_t left = en->size - en->pos, unit = 1, n;
	const uint8_t *p = en->data + en->pos;

	switch (d->encoding) {
	case EH_ENC_VALUE8:
	case EH_ENC_VALUE16:
	case EH_ENC_VALUE32:
	case EH_ENC_VALUE64:
	case EH_ENC_VALUE128:
		n = fixed_size(d->encoding);
		if (left < n)
			break;
		it->value = p;
		it->value_size = (uint32_t)n;
		en->pos += n;
		return 0;
	case EH_ENC_ZSTRING_CHAR32:
		unit += 2;
		/* fall through */
	case EH_ENC_ZSTRING_CHAR16:
		unit += 1;
		/* fall through */
	case EH_ENC_ZSTRING_CHAR8:
		for (n = 0; n + unit <= left; n += unit) {
			size_t i;

			for (i = 0; i < unit && !p[n + i]; i++)
				;
			if (i == unit) {
				it->value = p;
				it->value_size = (uint32_t)n;
				en->pos += n + unit;
				return 0;
			}
		}
		return fail(en, -EBADMSG, en->pos,
			    "field '%.40s': string not terminated", d->name);
	case EH_ENC_STRING_LENGTH16_CHAR32:
		unit += 2;
		/* fall through */
	case EH_ENC_STRING_LENGTH16_CHAR16:
		unit += 1;
		/* fall through */
	case EH_ENC_STRING_LENGTH16_CHAR8:
	case EH_ENC_BINARY_LENGTH16_CHAR8:
		if (left < 2)
			break;
		n = (size_t)get16(en, en->pos) * unit;
		if (left - 2 < n)
			break;
		it->value = p + 2;
		it->value_size = (uint32_t)n;
		en->pos += 2 + n;
		return 0;
	}
	return fail(en, -EBADMSG, en->pos, "field '%.40s': value truncated",
		    d->name);
}

static void fill(struct ehd_item *it, const struct decl *d)
{
	it->name = d->name;
	it->encoding = d->encoding;
	it->format = d->format;
	it->array_flags = d->array_flags;
	it->tag = d->tag;
	it->element_size = fixed_size(d->encoding);
	it->swap = 0;
}

/* Skip the metadata of @count fields (a struct array with no element). */
static int skip_fields(struct ehd_enum *en, unsigned int count, int depth)
{
	struct decl d;
	int err;

	if (depth > EHD_STRUCT_DEPTH_MAX)
		return fail(en, -EOVERFLOW, en->meta_pos,
			    "structs nested deeper than %d", EHD_STRUCT_DEPTH_MAX);
	while (count-- && en->meta_pos < en->meta_end) {
		err = read_decl(en, &d);
		if (err)
			return err;
		if (d.encoding == EH_ENC_STRUCT) {
			err = skip_fields(en, d.format, depth + 1);
			if (err)
				return err;
		}
	}
	return 0;
}

static int walk_fields(struct ehd_enum *en, unsigned int count, int depth);

/* The payload count of an array, or its constant count. */
static int array_count(struct ehd_enum *en, const struct decl *d,
		       uint16_t *n)
{
	if (d->array_flags == EH_ENC_CARRAY_FLAG) {
		*n = d->count;
		return 0;
	}
	if (en->size - en->pos < 2)
		return fail(en, -EBADMSG, en->pos,
			    "field '%.40s': array count truncated", d->name);
	*n = get16(en, en->pos);
	en->pos += 2;
	return 0;
}

static int walk_struct(struct ehd_enum *en, const struct decl *d, int depth,
		       uint16_t index, uint16_t count)
{
	struct ehd_enum_item *it;
	int err;

	if (depth >= EHD_STRUCT_DEPTH_MAX)
		return fail(en, -EOVERFLOW, d->at,
			    "structs nested deeper than %d", EHD_STRUCT_DEPTH_MAX);
	it = push(en, EHD_STATE_STRUCT_BEGIN);
	if (!it)
		return en->err;
	fill(&it->item, d);
	it->item.array_index = index;
	it->item.array_count = count;
	err = walk_fields(en, d->format, depth + 1);
	if (err)
		return err;
	it = push(en, EHD_STATE_STRUCT_END);
	if (!it)
		return en->err;
	fill(&it->item, d);
	it->item.array_index = index;
	it->item.array_count = count;
	return 0;
}

static int walk_array(struct ehd_enum *en, const struct decl *d, int depth)
{
	struct ehd_enum_item *begin, *it;
	uint16_t n = 0, i;
	size_t body;
	int err;

	err = array_count(en, d, &n);
	if (err)
		return err;
	begin = push(en, EHD_STATE_ARRAY_BEGIN);
	if (!begin)
		return en->err;
	fill(&begin->item, d);
	begin->item.array_count = n;
	if (d->encoding == EH_ENC_STRUCT) {
		body = en->meta_pos;
		if (!n) {
			err = skip_fields(en, d->format, depth + 1);
			if (err)
				return err;
		}
		for (i = 0; i < n; i++) {
			en->meta_pos = body;
			err = walk_struct(en, d, depth, i, n);
			if (err)
				return err;
		}
	} else {
		size_t start = en->pos;
		unsigned int first = en->count;

		for (i = 0; i < n; i++) {
			struct ehd_item v;

			memset(&v, 0, sizeof(v));
			fill(&v, d);
			v.array_index = i;
			v.array_count = n;
			err = read_value(en, d, &v);
			if (err)
				return err;
			it = push(en, EHD_STATE_VALUE);
			if (!it)
				return en->err;
			it->item = v;
		}
		/* Fixed-size elements: the begin item holds them all. */
		if (fixed_size(d->encoding)) {
			begin = &en->items[first - 1];
			begin->item.value = en->data + start;
			begin->item.value_size = (uint32_t)(en->pos - start);
		}
	}
	it = push(en, EHD_STATE_ARRAY_END);
	if (!it)
		return en->err;
	fill(&it->item, d);
	it->item.array_count = n;
	return 0;
}

static int walk_fields(struct ehd_enum *en, unsigned int count, int depth)
{
	struct ehd_enum_item *it;
	struct decl d;
	int err;

	while (count-- && en->meta_pos < en->meta_end) {
		err = read_decl(en, &d);
		if (err)
			return err;
		if (d.array_flags) {
			err = walk_array(en, &d, depth);
		} else if (d.encoding == EH_ENC_STRUCT) {
			err = walk_struct(en, &d, depth, 0, 0);
		} else {
			struct ehd_item v;

			memset(&v, 0, sizeof(v));
			fill(&v, &d);
			err = read_value(en, &d, &v);
			if (!err) {
				it = push(en, EHD_STATE_VALUE);
				if (!it)
					return en->err;
				it->item = v;
			}
		}
		if (err)
			return err;
	}
	return 0;
}

/*
 * Split and check "<provider>_L<level>K<keyword><options>", by the rules
 * of eh_parse_tracepoint_name() (eventheader.h): the one rule for names.
 */
static int parse_name(struct ehd_enum *en, const char *tp, size_t len)
{
	struct ehd_event_info *info = &en->info;
	char name[EH_NAME_MAX];
	const char *options;
	uint8_t level;
	size_t plen;

	if (len >= EH_NAME_MAX || memchr(tp, 0, len))
		return fail(en, -ENOTSUP, 0, "bad tracepoint name length");
	memcpy(name, tp, len);
	name[len] = 0;
	if (!eh_parse_tracepoint_name(name, &plen, &level, &info->keyword,
				      &options))
		return fail(en, -ENOTSUP, 0,
			    "tracepoint name not <provider>_L<level>K<keyword><options> (lowercase hex)");
	info->tracepoint = tp;
	info->tracepoint_len = (uint16_t)len;
	info->provider_len = (uint16_t)plen;
	info->options = (uint16_t)(options - name);
	info->options_len = (uint16_t)(len - info->options);
	if (level != en->info.header.level)
		return fail(en, -ENOTSUP, 7,
			    "level %u in the header, %u in the tracepoint name",
			    en->info.header.level, level);
	return 0;
}

static int parse_extensions(struct ehd_enum *en)
{
	struct ehd_event_info *info = &en->info;
	size_t p = sizeof(struct eh_header);
	int more = info->header.flags & EH_FLAG_EXTENSION, meta = 0;

	while (more) {
		uint16_t size, kind;

		if (en->size - p < 4)
			return fail(en, -EBADMSG, p, "extension header truncated");
		size = get16(en, p);
		kind = get16(en, p + 2);
		p += 4;
		if (en->size - p < size)
			return fail(en, -EBADMSG, p - 4,
				    "extension of %u bytes truncated", size);
		more = kind & EH_EXT_CHAIN_FLAG;
		switch (kind & EH_EXT_KIND_MASK) {
		case EH_EXT_INVALID:
			return fail(en, -EBADMSG, p - 4, "extension of kind 0");
		case EH_EXT_METADATA:
			if (meta)
				return fail(en, -EBADMSG, p - 4,
					    "second metadata extension");
			meta = 1;
			en->meta_pos = p;
			en->meta_end = p + size;
			break;
		case EH_EXT_ACTIVITY_ID:
			if (info->activity_id)
				return fail(en, -EBADMSG, p - 4,
					    "second activity id extension");
			if (size != 16 && size != 32)
				return fail(en, -EBADMSG, p - 4,
					    "activity id extension of %u bytes",
					    size);
			info->activity_id = en->data + p;
			info->related_id = size == 32 ? en->data + p + 16 : NULL;
			break;
		default:
			break;	/* unknown kinds are skipped */
		}
		p += size;
	}
	en->pos = p;
	if (!meta)
		return fail(en, -ENOTSUP, p, "no metadata extension");
	return 0;
}

static int start(struct ehd_enum *en, const char *tp, size_t tp_len)
{
	struct ehd_event_info *info = &en->info;
	const uint8_t *nul;
	int host_le = EH_FLAG_DEFAULT & EH_FLAG_LITTLE_ENDIAN;
	int err;

	if (en->size < sizeof(struct eh_header))
		return fail(en, -EINVAL, 0, "event of %zu bytes (less than 8)",
			    en->size);
	if (en->size > 0x7fffffff)
		return fail(en, -EINVAL, 0, "event larger than 2 GiB");
	memcpy(&info->header, en->data, sizeof(info->header));
	if (info->header.flags & ~(EH_FLAG_POINTER64 | EH_FLAG_LITTLE_ENDIAN |
				   EH_FLAG_EXTENSION))
		return fail(en, -ENOTSUP, 0, "unknown header flags 0x%X",
			    info->header.flags);
	en->swap = !(info->header.flags & EH_FLAG_LITTLE_ENDIAN) != !host_le;
	if (en->swap) {
		info->header.id = __builtin_bswap16(info->header.id);
		info->header.tag = __builtin_bswap16(info->header.tag);
	}
	err = parse_name(en, tp, tp_len);
	if (!err)
		err = parse_extensions(en);
	if (err)
		return err;
	nul = memchr(en->data + en->meta_pos, 0, en->meta_end - en->meta_pos);
	if (!nul)
		return fail(en, -EBADMSG, en->meta_pos, "event name not terminated");
	info->name = (const char *)en->data + en->meta_pos;
	info->name_len = (uint16_t)strcspn(info->name, ";");
	en->meta_pos = (size_t)(nul - en->data) + 1;
	return 0;
}

/* Walk every field; an error here is reported by ehd_enum_next(). */
static void walk(struct ehd_enum *en)
{
	if (walk_fields(en, EHD_TOP_FIELDS_MAX, 0) == 0 &&
	    en->meta_pos < en->meta_end)
		fail(en, -ENOTSUP, en->meta_pos, "more than %d top-level fields",
		     EHD_TOP_FIELDS_MAX);
}

EHD_API struct ehd_enum *ehd_enum_new(void)
{
	return calloc(1, sizeof(struct ehd_enum));
}

EHD_API void ehd_enum_free(struct ehd_enum *en)
{
	if (!en)
		return;
	free(en->items);
	free(en->ids);
	free(en);
}

static void reset(struct ehd_enum *en, const void *data, size_t size,
		  unsigned int step_limit)
{
	memset(&en->info, 0, sizeof(en->info));
	en->data = data;
	en->size = data ? size : 0;
	en->meta_pos = en->meta_end = en->pos = 0;
	en->step_limit = step_limit ? step_limit : EHD_STEP_LIMIT_DEFAULT;
	en->count = en->next = 0;
	en->err = 0;
	en->err_offset = 0;
	en->reason[0] = 0;
	en->key = 0;
	en->cut = 0;
}

/* Is @id the identity of the event @en was reset to? */
static bool same_ident(const struct ehd_enum *en, const struct ident *id,
		       const char *tp, size_t tp_len)
{
	const uint8_t *d = en->data;

	if (!id->key || id->len > en->size || id->tp_len != tp_len ||
	    !ehd__same_bytes((const uint8_t *)id->tp_copy,
			     (const uint8_t *)tp, tp_len))
		return false;
	if (!id->act_len)
		return ehd__same_bytes(d, id->bytes, id->len);
	return ehd__same_bytes(d, id->bytes, id->act_at) &&
	       ehd__same_bytes(d + id->act_at + id->act_len,
			       id->bytes + id->act_at + id->act_len,
			       id->len - id->act_at - id->act_len);
}

/* Start as a remembered identity: true, or false when none is this one. */
static bool start_known(struct ehd_enum *en, const char *tp, size_t tp_len)
{
	const struct ident *id;
	unsigned int i, k;

	if (!en->ids || en->size > 0x7fffffff)
		return false;
	for (i = 0; i < IDS_MAX; i++) {
		k = (en->last + IDS_MAX - i) % IDS_MAX;
		id = &en->ids[k];
		if (!same_ident(en, id, tp, tp_len))
			continue;
		en->info = id->info;
		en->info.tracepoint = tp;
		en->info.name = (const char *)en->data + id->name_at;
		if (id->act_len) {
			en->info.activity_id = en->data + id->act_at;
			en->info.related_id = id->act_len == 32 ?
					      en->data + id->act_at + 16 : NULL;
		}
		en->swap = id->swap;
		en->meta_pos = id->meta_pos;
		en->meta_end = id->meta_end;
		en->pos = id->len;
		en->key = id->key;
		return true;
	}
	return false;
}

/* Remember the identity start() worked out, if it is small enough. */
static void remember(struct ehd_enum *en, const char *tp, size_t tp_len)
{
	struct ident *id;
	size_t act_at = 0, act_len = 0;

	if (en->pos > ID_BYTES_MAX || tp_len > ID_TP_MAX)
		return;
	if (!en->ids) {
		en->ids = calloc(IDS_MAX, sizeof(*en->ids));
		if (!en->ids)
			return;
	}
	en->last = (en->last + 1) % IDS_MAX;
	id = &en->ids[en->last];
	if (en->info.activity_id) {
		act_at = (size_t)(en->info.activity_id - en->data);
		act_len = en->info.related_id ? 32 : 16;
	}
	id->tp_len = tp_len;
	memcpy(id->tp_copy, tp, tp_len);
	id->len = en->pos;
	id->act_at = act_at;
	id->act_len = act_len;
	id->name_at = (size_t)((const uint8_t *)en->info.name - en->data);
	id->meta_pos = en->meta_pos;
	id->meta_end = en->meta_end;
	id->swap = en->swap;
	id->info = en->info;
	memcpy(id->bytes, en->data, en->pos);
	if (act_len)
		memset(id->bytes + act_at, 0, act_len);
	id->key = en->key = __atomic_add_fetch(&next_key, 1, __ATOMIC_RELAXED);
}

EHD_API int ehd_enum_start(struct ehd_enum *en, const char *tracepoint,
			   size_t tracepoint_len, const void *data, size_t size,
			   unsigned int step_limit)
{
	int err;

	const char *tp = tracepoint ? tracepoint : "";
	size_t tp_len = tracepoint ? tracepoint_len : 0;

	reset(en, data, size, step_limit);
	if (start_known(en, tp, tp_len)) {
		err = 0;
	} else {
		err = start(en, tp, tp_len);
		if (!err && tracepoint)
			remember(en, tp, tp_len);
	}
	en->started = err ? NOT_STARTED : STARTED;
	en->fields_meta = en->meta_pos;
	en->fields_pos = en->pos;
	return err;
}

void ehd__enum_start_as(struct ehd_enum *en, const struct ehd_enum *from)
{
	reset(en, from->data, from->size, from->step_limit);
	en->key = from->key;
	en->info = from->info;
	en->swap = from->swap;
	en->meta_pos = en->fields_meta = from->fields_meta;
	en->meta_end = from->meta_end;
	en->pos = en->fields_pos = from->fields_pos;
	en->started = STARTED;
}

/* The walk is done on first use, so identifying an event costs little. */
static void ensure_walked(struct ehd_enum *en)
{
	unsigned int i;

	if (en->started != STARTED)
		return;
	en->started = WALKED;
	walk(en);
	for (i = 0; i < en->count; i++)
		en->items[i].item.swap = (uint8_t)en->swap;
}

void ehd__enum_begin_list(struct ehd_enum *en, const void *data, size_t size)
{
	reset(en, data, size, UINT32_MAX);
	en->started = LIST;
}

int ehd__eh_tracepoint(struct ehd_event_info *info, const char *tp, size_t len)
{
	struct ehd_enum en;
	int err;

	memset(&en, 0, sizeof(en));
	en.info.header.level = info->header.level;
	err = parse_name(&en, tp, len);
	if (err)
		return err;
	info->tracepoint = en.info.tracepoint;
	info->tracepoint_len = en.info.tracepoint_len;
	info->provider_len = en.info.provider_len;
	info->options = en.info.options;
	info->options_len = en.info.options_len;
	info->keyword = en.info.keyword;
	return 0;
}

void ehd__enum_set_event(struct ehd_enum *en,
			 const struct ehd_event_info *info)
{
	en->info = *info;
	en->started = LIST_EVENT;
}

uint64_t ehd__enum_key(const struct ehd_enum *en)
{
	return en->started == STARTED || en->started == WALKED ? en->key : 0;
}

void ehd__enum_layout(const struct ehd_enum *en, const uint8_t **decls,
		      size_t *decls_len, size_t *payload)
{
	*decls = en->data + en->fields_meta;
	*decls_len = en->meta_end - en->fields_meta;
	*payload = en->fields_pos;
}

struct ehd_item *ehd__enum_add(struct ehd_enum *en, int state)
{
	struct ehd_enum_item *it = push(en, (uint8_t)state);

	return it ? &it->item : NULL;
}

int ehd__enum_fail(struct ehd_enum *en, int err, uint64_t offset,
		   const char *reason)
{
	return fail(en, err, (size_t)offset, "%s", reason);
}

EHD_API int ehd_enum_next(struct ehd_enum *en)
{
	if (en->started == NOT_STARTED)
		return -EINVAL;
	ensure_walked(en);
	if (en->next < en->count)
		return en->items[en->next++].state;
	en->next = en->count + 1;
	return en->err ? en->err : EHD_STATE_AFTER_LAST;
}

EHD_API const struct ehd_event_info *ehd_enum_event(const struct ehd_enum *en)
{
	return en->started == STARTED || en->started == WALKED ||
	       en->started == LIST_EVENT ? &en->info : NULL;
}

EHD_API const struct ehd_item *ehd_enum_item(const struct ehd_enum *en)
{
	if (!en->next || en->next > en->count)
		return NULL;
	return &en->items[en->next - 1].item;
}

EHD_API const char *ehd_enum_error(struct ehd_enum *en, uint64_t *offset)
{
	ensure_walked(en);
	if (!en->err)
		return NULL;
	if (offset)
		*offset = en->err_offset;
	return en->reason;
}

EHD_API size_t ehd_enum_trailing(struct ehd_enum *en)
{
	ensure_walked(en);
	return en->err ? 0 : en->size - en->pos;
}

bool ehd__enum_extra(struct ehd_enum *en)
{
	return ehd__extra_bytes(ehd_enum_trailing(en));
}

void ehd__enum_note_cut(struct ehd_enum *en)
{
	en->cut++;
}

unsigned int ehd__enum_cut(const struct ehd_enum *en)
{
	return en->cut;
}
