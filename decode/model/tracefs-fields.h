/* SPDX-License-Identifier: MIT */
/*
 * tracefs-fields.h - classic tracepoint fields as enumerator items
 * (libehdecode, private)
 */
#ifndef EHD_TRACEFS_FIELDS_H
#define EHD_TRACEFS_FIELDS_H

#include <stddef.h>

#include <ehdecode/enumerator.h>

struct tep_event;
struct ehd__tracefs_types;

/*
 * ehd__tracefs_types_new() - the kinds of @event's fields, deduced once
 * (free with free(); valid while @event is)
 *
 * Return: the types, or NULL (out of memory).
 */
struct ehd__tracefs_types *ehd__tracefs_types_new(struct tep_event *event,
						  int long_size);

/* The event @types was made for. */
const struct tep_event *
ehd__tracefs_types_event(const struct ehd__tracefs_types *types);

/*
 * How field @i (common fields first) of @types renders: @format is
 * EH_FMT_HEX_BYTES for bytes, EH_FMT_STRING8 for text, else the format of
 * an integer (UNSIGNED_INT, SIGNED_INT, HEX_INT); @elem is its size or
 * element size, 0 if unknown.
 */
void ehd__tracefs_field_type(const struct ehd__tracefs_types *types, size_t i,
			     uint8_t *format, unsigned int *elem);

/*
 * ehd__tracefs_fields() - start @en on the fields of a classic record
 * @en: the enumerator (see enumerator-int.h)
 * @event: the tracepoint's format; NULL gives one "raw" field with all
 *	the bytes
 * @types: from ehd__tracefs_types_new() for @event, or NULL to deduce
 *	the kinds now
 * @raw: the record, common fields first
 * @size: its size
 * @long_size: size of a C long where it was recorded
 * @big: the record is big-endian
 * @common: include the common_* fields
 *
 * Return: 0 or -ENOMEM.
 */
int ehd__tracefs_fields(struct ehd_enum *en, struct tep_event *event,
			const struct ehd__tracefs_types *types,
			const void *raw, size_t size, int long_size, int big,
			int common);

#endif /* EHD_TRACEFS_FIELDS_H */
