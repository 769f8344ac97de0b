// SPDX-License-Identifier: MIT
/*
 * tracefs-fields.c - the fields of classic (non-EventHeader) tracepoints as
 * enumerator items
 *
 * libtraceevent parses the tracefs "format" text; the kind of each field is
 * then deduced from its C type the way the reference decoder does, so that
 * rendered values match it:
 *	pointers ('*')				hex, pointer-sized
 *	struct ...				bytes (hex)
 *	char					string (Latin-1, up to a NUL)
 *	signed/unsigned char			signed/unsigned
 *	int, short, long, long long, signed, unsigned
 *						signed or unsigned
 *	unsigned long				hex
 *	u8 __u8 uint8_t ... s64 __s64 int64_t	that exact kind
 *	any other type name (pid_t ...)		hex
 * A known signedness from the format's "signed:" wins for signed and
 * unsigned kinds; "[N]" is a fixed array, __data_loc / __rel_loc a
 * dynamic one. Arrays become arrays of items, except arrays of chars
 * (one string) and of unknown bytes (one hex blob).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "core/ehd-bytes.h"
#include "model/enumerator-int.h"
#include "model/tracefs-fields.h"

enum kind { K_BYTES, K_UNSIGNED, K_SIGNED, K_HEX, K_STRING };

/* The one field of a record without a format. */
static struct tep_format_field raw_field = { .name = (char *)"raw" };

struct ftype {
	enum kind kind;
	unsigned int elem;	/* element size, 0 if unknown */
};

/* The fixed-width type names: size and signedness. */
static const struct {
	const char *name;
	unsigned int size;
	int is_signed;
} fixed_names[] = {
	{ "u8", 1, 0 }, { "__u8", 1, 0 }, { "uint8_t", 1, 0 },
	{ "s8", 1, 1 }, { "__s8", 1, 1 }, { "int8_t", 1, 1 },
	{ "u16", 2, 0 }, { "__u16", 2, 0 }, { "uint16_t", 2, 0 },
	{ "s16", 2, 1 }, { "__s16", 2, 1 }, { "int16_t", 2, 1 },
	{ "u32", 4, 0 }, { "__u32", 4, 0 }, { "uint32_t", 4, 0 },
	{ "s32", 4, 1 }, { "__s32", 4, 1 }, { "int32_t", 4, 1 },
	{ "u64", 8, 0 }, { "__u64", 8, 0 }, { "uint64_t", 8, 0 },
	{ "s64", 8, 1 }, { "__s64", 8, 1 }, { "int64_t", 8, 1 },
};

/* What the words of a C type say. */
struct words {
	int longs, is_short, is_char, is_int, is_unsigned, is_signed;
	int is_struct, fixed;	/* fixed: index + 1 in fixed_names */
	int other;		/* a type name we do not know */
};

static int ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static void read_words(const char *t, struct words *w)
{
	memset(w, 0, sizeof(*w));
	while (*t) {
		const char *s;
		size_t n, i;

		if (!ident_char(*t) || (*t >= '0' && *t <= '9')) {
			t++;
			continue;
		}
		for (s = t; ident_char(*t); t++)
			;
		n = (size_t)(t - s);
#define IS(word) (n == sizeof(word) - 1 && !strncmp(s, word, n))
		if (IS("long"))
			w->longs++;
		else if (IS("short"))
			w->is_short = 1;
		else if (IS("char"))
			w->is_char = 1;
		else if (IS("int"))
			w->is_int = 1;
		else if (IS("unsigned"))
			w->is_unsigned = 1;
		else if (IS("signed"))
			w->is_signed = 1;
		else if (IS("struct"))
			w->is_struct = 1;
		else if (!IS("const") && !IS("volatile") && !IS("__data_loc") &&
			 !IS("__rel_loc")) {
			for (i = 0; i < sizeof(fixed_names) / sizeof(fixed_names[0]); i++)
				if (strlen(fixed_names[i].name) == n &&
				    !strncmp(s, fixed_names[i].name, n))
					w->fixed = (int)i + 1;
			if (!w->fixed)
				w->other = 1;
		}
#undef IS
	}
}

static struct ftype deduce(const struct tep_format_field *f, int long_size)
{
	const char *t = f->type ? f->type : "";
	struct ftype r = { K_HEX, 0 };
	struct words w;

	if (strchr(t, '*')) {
		r.elem = (unsigned int)long_size;	/* pointers: hex */
		return r;
	}
	read_words(t, &w);
	if (w.is_struct) {
		r.kind = K_BYTES;
		r.elem = 1;
		return r;
	}
	if (w.fixed) {
		r.kind = fixed_names[w.fixed - 1].is_signed ? K_SIGNED : K_UNSIGNED;
		r.elem = fixed_names[w.fixed - 1].size;
	} else if (w.other) {
		return r;	/* pid_t, size_t, bool ...: hex */
	} else if (w.is_char) {
		r.elem = 1;
		if (!w.is_unsigned && !w.is_signed) {
			r.kind = K_STRING;
			return r;
		}
		r.kind = w.is_unsigned ? K_UNSIGNED : K_SIGNED;
	} else {
		r.elem = w.is_short ? 2 : w.longs >= 2 ? 8 :
			 w.longs == 1 ? (unsigned int)long_size : 4;
		if (w.is_unsigned && w.longs == 1)
			return r;	/* unsigned long: hex */
		r.kind = w.is_unsigned ? K_UNSIGNED : K_SIGNED;
	}
	/* The format's "signed:" wins. */
	r.kind = (f->flags & TEP_FIELD_IS_SIGNED) ? K_SIGNED : K_UNSIGNED;
	return r;
}

/* Classic fields are integers of 1, 2, 4 or 8 bytes; others are bytes. */
static uint8_t value_encoding(size_t size)
{
	return size <= 8 ? eh_value_encoding(size) : 0;
}

static uint8_t kind_format(enum kind kind)
{
	switch (kind) {
	case K_SIGNED:
		return EH_FMT_SIGNED_INT;
	case K_UNSIGNED:
		return EH_FMT_UNSIGNED_INT;
	case K_STRING:
		return EH_FMT_STRING8;
	case K_HEX:
		return EH_FMT_HEX_INT;
	default:
		return EH_FMT_HEX_BYTES;
	}
}

/* Where the bytes of a field are in @raw; -EBADMSG if outside. */
static int locate(const struct tep_format_field *f, const uint8_t *raw,
		  size_t size, int big, const uint8_t **p, size_t *len)
{
	size_t off = f->offset, n = f->size;

	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		uint32_t loc;

		if ((size_t)f->offset + 4 > size || f->size < 4)
			return -EBADMSG;
		loc = (uint32_t)ehd__load_uint(raw + f->offset, 4, big);
		off = loc & 0xffff;
		n = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += f->offset + f->size;
	} else if (f->size == 0) {
		n = size > off ? size - off : 0;	/* the rest of the event */
	}
	if (off > size || n > size - off)
		return -EBADMSG;
	*p = raw + off;
	*len = n;
	return 0;
}

static struct ehd_item *add(struct ehd_enum *en, int state,
			    const struct tep_format_field *f, int swap)
{
	struct ehd_item *it = ehd__enum_add(en, state);

	if (it) {
		it->name = f->name;
		it->swap = (uint8_t)swap;
	}
	return it;
}

/* An item of an array of @n elements of @elem bytes. */
static struct ehd_item *add_array_item(struct ehd_enum *en, int state,
				       const struct tep_format_field *f,
				       int swap, const struct ftype *t,
				       unsigned int elem, size_t n)
{
	struct ehd_item *it = add(en, state, f, swap);

	if (it) {
		it->encoding = value_encoding(elem);
		it->format = kind_format(t->kind);
		it->array_flags = (f->flags & TEP_FIELD_IS_DYNAMIC) ?
				  EH_ENC_VARRAY_FLAG : EH_ENC_CARRAY_FLAG;
		it->array_count = (uint16_t)n;
		it->element_size = (uint8_t)elem;
	}
	return it;
}

/* A blob (string, bytes, or an empty HEX_INT that renders as null). */
static int add_blob(struct ehd_enum *en, const struct tep_format_field *f,
		    uint8_t encoding, uint8_t format, const uint8_t *p,
		    size_t len, int swap)
{
	struct ehd_item *it = add(en, EHD_STATE_VALUE, f, swap);

	if (!it)
		return -ENOMEM;
	it->encoding = encoding;
	it->format = format;
	it->value = p;
	it->value_size = (uint32_t)len;
	return 0;
}

static int add_field(struct ehd_enum *en, const struct tep_format_field *f,
		     struct ftype t, const uint8_t *raw, size_t size, int big)
{
	int swap = big != ehd__host_big();
	struct ehd_item *it;
	const uint8_t *p;
	size_t len, i, n;
	unsigned int elem;
	int array = (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) != 0;

	if (locate(f, raw, size, big, &p, &len)) {
		/* Outside the record: shown as null, and counted. */
		ehd__enum_note_cut(en);
		return add_blob(en, f, EH_ENC_BINARY_LENGTH16_CHAR8,
				EH_FMT_HEX_INT, NULL, 0, swap);
	}
	if (t.kind == K_STRING) {
		const uint8_t *nul = memchr(p, 0, len);

		return add_blob(en, f, EH_ENC_STRING_LENGTH16_CHAR8,
				EH_FMT_STRING8, p,
				nul ? (size_t)(nul - p) : len, swap);
	}
	if (!array) {
		if (t.kind == K_BYTES || !value_encoding((unsigned int)len))
			return add_blob(en, f, EH_ENC_BINARY_LENGTH16_CHAR8,
					EH_FMT_HEX_BYTES, p, len, swap);
		it = add(en, EHD_STATE_VALUE, f, swap);
		if (!it)
			return -ENOMEM;
		it->encoding = value_encoding((unsigned int)len);
		it->format = kind_format(t.kind);
		it->element_size = (uint8_t)len;
		it->value = p;
		it->value_size = (uint32_t)len;
		return 0;
	}
	elem = t.elem;
	if (!elem && f->arraylen)
		elem = (unsigned int)(f->size / f->arraylen);
	if (!elem)
		elem = 1;
	n = len / elem;
	/* Arrays of bytes of unknown meaning, or of odd elements: a blob. */
	if ((elem == 1 && (t.kind == K_BYTES || (t.kind == K_HEX && !t.elem))) ||
	    t.kind == K_BYTES || !value_encoding(elem) || n > UINT16_MAX)
		return add_blob(en, f, EH_ENC_BINARY_LENGTH16_CHAR8,
				EH_FMT_HEX_BYTES, p, len, swap);
	if (len % elem)
		ehd__enum_note_cut(en);	/* part of an element: left out */
	it = add_array_item(en, EHD_STATE_ARRAY_BEGIN, f, swap, &t, elem, n);
	if (!it)
		return -ENOMEM;
	it->value = p;
	it->value_size = (uint32_t)(n * elem);
	for (i = 0; i < n; i++) {
		it = add_array_item(en, EHD_STATE_VALUE, f, swap, &t, elem, n);
		if (!it)
			return -ENOMEM;
		it->array_index = (uint16_t)i;
		it->value = p + i * elem;
		it->value_size = elem;
	}
	it = add_array_item(en, EHD_STATE_ARRAY_END, f, swap, &t, elem, n);
	return it ? 0 : -ENOMEM;
}

/* The kinds of a format's fields, common ones first, deduced once. */
struct ehd__tracefs_types {
	const struct tep_event *event;
	int long_size;
	size_t count;
	struct ftype t[];
};

static size_t count_fields(const struct tep_format_field *f)
{
	size_t n = 0;

	for (; f; f = f->next)
		n++;
	return n;
}

struct ehd__tracefs_types *ehd__tracefs_types_new(struct tep_event *event,
						  int long_size)
{
	size_t nc = count_fields(event->format.common_fields);
	size_t n = nc + count_fields(event->format.fields), i = 0;
	struct ehd__tracefs_types *ty;
	struct tep_format_field *f;

	ty = malloc(sizeof(*ty) + n * sizeof(ty->t[0]));
	if (!ty)
		return NULL;
	ty->event = event;
	ty->long_size = long_size;
	ty->count = n;
	for (f = event->format.common_fields; f; f = f->next)
		ty->t[i++] = deduce(f, long_size);
	for (f = event->format.fields; f; f = f->next)
		ty->t[i++] = deduce(f, long_size);
	return ty;
}

const struct tep_event *
ehd__tracefs_types_event(const struct ehd__tracefs_types *types)
{
	return types->event;
}

void ehd__tracefs_field_type(const struct ehd__tracefs_types *types, size_t i,
			     uint8_t *format, unsigned int *elem)
{
	*format = kind_format(types->t[i].kind);
	*elem = types->t[i].elem;
}

static int add_fields(struct ehd_enum *en, struct tep_format_field *f,
		      const struct ftype *t, const uint8_t *raw, size_t size,
		      int long_size, int big)
{
	int err = 0;

	for (; f && !err; f = f->next)
		err = add_field(en, f, t ? *t++ : deduce(f, long_size), raw,
				size, big);
	return err;
}

int ehd__tracefs_fields(struct ehd_enum *en, struct tep_event *event,
			const struct ehd__tracefs_types *types,
			const void *raw, size_t size, int long_size, int big,
			int common)
{
	const struct ftype *t = NULL;
	int err = 0;

	ehd__enum_begin_list(en, raw, size);
	if (!event)
		return add_blob(en, &raw_field, EH_ENC_BINARY_LENGTH16_CHAR8,
				EH_FMT_HEX_BYTES, raw, size,
				big != ehd__host_big());
	if (types && types->event == event && types->long_size == long_size)
		t = types->t;
	if (common)
		err = add_fields(en, event->format.common_fields, t, raw, size,
				 long_size, big);
	if (t)
		t += count_fields(event->format.common_fields);
	if (!err)
		err = add_fields(en, event->format.fields, t, raw, size,
				 long_size, big);
	if (err)
		ehd__enum_fail(en, err, 0, "out of memory");
	return err;
}
