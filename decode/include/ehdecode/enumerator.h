/* SPDX-License-Identifier: MIT */
/*
 * ehdecode/enumerator.h - walk the fields of one EventHeader event
 *
 *	struct ehd_enum *en = ehd_enum_new();
 *	int state;
 *
 *	if (ehd_enum_start(en, "MyProvider_L4K1", 15, data, size, 0) < 0)
 *		... ehd_enum_error(en, &offset) says where and why ...
 *	while ((state = ehd_enum_next(en)) > EHD_STATE_BEFORE_FIRST) {
 *		const struct ehd_item *it = ehd_enum_item(en);
 *		... it->name, it->value, it->value_size, it->encoding ...
 *	}
 *	if (state < 0)
 *		... damaged after the items already seen ...
 *	ehd_enum_free(en);
 *
 * The enumerator checks the whole event when it starts: items it returns
 * before an error are valid; the error comes where the damage is. It keeps
 * pointers into the caller's @data and tracepoint name, which must stay
 * valid until the next ehd_enum_start() or ehd_enum_free().
 *
 * Functions returning int return 0 (or a state) on success and a negative
 * errno on failure:
 *	-EINVAL		a bad argument (event shorter than 8 bytes ...)
 *	-ENOTSUP	not a valid EventHeader event: bad tracepoint name,
 *			unknown header flags, no metadata, reserved encoding
 *	-EBADMSG	damaged data: truncated extension, metadata or value
 *	-EOVERFLOW	structs nested deeper than EHD_STRUCT_DEPTH_MAX
 *	-E2BIG		more items than the step limit
 */
#ifndef EHDECODE_ENUMERATOR_H
#define EHDECODE_ENUMERATOR_H

#include <stddef.h>
#include <stdint.h>

#include <eventheader/eventheader.h>
#include <ehdecode/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Default and largest number of items one event may yield. */
#define EHD_STEP_LIMIT_DEFAULT 4096
/* Deepest nesting of structs. */
#define EHD_STRUCT_DEPTH_MAX 8
/* Most top-level fields an event may have. */
#define EHD_TOP_FIELDS_MAX 255

/* What ehd_enum_next() returned. */
enum ehd_state {
	EHD_STATE_AFTER_LAST = 0,	/* no more items */
	EHD_STATE_BEFORE_FIRST = 1,	/* started, nothing read yet */
	EHD_STATE_VALUE = 2,		/* a scalar, string or array element */
	EHD_STATE_ARRAY_BEGIN = 3,	/* an array's elements follow */
	EHD_STATE_ARRAY_END = 4,
	EHD_STATE_STRUCT_BEGIN = 5,	/* a struct's fields follow */
	EHD_STATE_STRUCT_END = 6,
};

/**
 * struct ehd_event_info - what identifies an event
 * @tracepoint: the tracepoint name (not NUL-terminated)
 * @tracepoint_len: its length
 * @provider_len: the provider is the first @provider_len bytes of it
 * @options: where the options ("G<group>"...) start in @tracepoint
 * @options_len: their length (0 for none)
 * @name: event name, NUL-terminated, possibly with ";attr=value" parts
 * @name_len: length of the name up to the first ';' (or the end)
 * @header: the event's header, in host byte order
 * @keyword: the keyword of the tracepoint name
 * @activity_id: 16 bytes, or NULL
 * @related_id: 16 bytes, or NULL
 */
struct ehd_event_info {
	const char *tracepoint;
	uint16_t tracepoint_len;
	uint16_t provider_len;
	uint16_t options;
	uint16_t options_len;
	const char *name;
	uint16_t name_len;
	struct eh_header header;
	uint64_t keyword;
	const uint8_t *activity_id;
	const uint8_t *related_id;
};

/**
 * struct ehd_item - one item of an event
 * @name: field name, NUL-terminated, possibly with ";attr=value" parts
 * @value: the bytes of a VALUE (a string without its count or
 *	terminator); for ARRAY_BEGIN of fixed-size elements, all elements
 * @value_size: number of bytes at @value
 * @array_index: index of this element or struct in its array
 * @array_count: number of elements of the array it is in (or begins)
 * @element_size: size of one element when fixed (1..16), else 0
 * @encoding: enum eh_field_encoding without flags
 * @format: enum eh_field_format without the chain flag; for a struct,
 *	its field count
 * @array_flags: 0, EH_ENC_CARRAY_FLAG or EH_ENC_VARRAY_FLAG
 * @swap: nonzero if @value is in the other byte order than the host
 * @tag: the field tag, or 0
 */
struct ehd_item {
	const char *name;
	const uint8_t *value;
	uint32_t value_size;
	uint16_t array_index;
	uint16_t array_count;
	uint8_t element_size;
	uint8_t encoding;
	uint8_t format;
	uint8_t array_flags;
	uint8_t swap;
	uint16_t tag;
};

struct ehd_enum;

/**
 * ehd_enum_new() - make an enumerator (reusable for any number of events)
 *
 * Return: the enumerator, or NULL with errno set.
 */
EHD_API struct ehd_enum *ehd_enum_new(void);

/**
 * ehd_enum_free() - free an enumerator
 * @en: the enumerator, or NULL
 */
EHD_API void ehd_enum_free(struct ehd_enum *en);

/**
 * ehd_enum_start() - start on an event
 * @en: the enumerator
 * @tracepoint: the tracepoint name, e.g. "MyProvider_L4K1" (need not be
 *	NUL-terminated; no "user_events:" system prefix)
 * @tracepoint_len: its length
 * @data: the event, from its eventheader flags byte on
 * @size: bytes at @data (trailing bytes after the last field are allowed)
 * @step_limit: most items to yield, 0 for EHD_STEP_LIMIT_DEFAULT
 *
 * Return: 0, or a negative errno (see the top of this header) with the
 * details available from ehd_enum_error().
 */
EHD_API int ehd_enum_start(struct ehd_enum *en, const char *tracepoint,
			   size_t tracepoint_len, const void *data, size_t size,
			   unsigned int step_limit);

/**
 * ehd_enum_next() - move to the next item
 * @en: a started enumerator
 *
 * Return: enum ehd_state (EHD_STATE_AFTER_LAST at the end), or a negative
 * errno where the event is damaged.
 */
EHD_API int ehd_enum_next(struct ehd_enum *en);

/**
 * ehd_enum_event() - the event's identity
 * @en: a started enumerator
 *
 * Return: the event info (owned by @en), or NULL if not started.
 */
EHD_API const struct ehd_event_info *ehd_enum_event(const struct ehd_enum *en);

/**
 * ehd_enum_item() - the current item
 * @en: an enumerator positioned on an item
 *
 * Return: the item (owned by @en), or NULL when not on an item.
 */
EHD_API const struct ehd_item *ehd_enum_item(const struct ehd_enum *en);

/**
 * ehd_enum_error() - where and why the event is not valid
 * @en: the enumerator
 * @offset: set to the byte offset in the event data (may be NULL)
 *
 * Return: a reason (owned by @en), or NULL if there was no error.
 */
EHD_API const char *ehd_enum_error(struct ehd_enum *en, uint64_t *offset);

/**
 * ehd_enum_trailing() - bytes after the last field
 * @en: an enumerator that reached EHD_STATE_AFTER_LAST
 *
 * Up to 3 are normal (the kernel pads records).
 *
 * Return: the number of bytes not read by any field.
 */
EHD_API size_t ehd_enum_trailing(struct ehd_enum *en);

#ifdef __cplusplus
}
#endif

#endif /* EHDECODE_ENUMERATOR_H */
