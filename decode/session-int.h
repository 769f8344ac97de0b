/* SPDX-License-Identifier: MIT */
/*
 * session-int.h - what session.c shares inside libehdecode and its tests
 */
#ifndef EHD_SESSION_INT_H
#define EHD_SESSION_INT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * ehd__session_eh_name() - is @name an EventHeader tracepoint name,
 * "<provider>_L<level hex>K<keyword hex>" with an optional "G<group>"?
 * @name: a user_events tracepoint name
 * @provider_len: gets the length of the provider part (may be NULL)
 */
bool ehd__session_eh_name(const char *name, size_t *provider_len);

#endif /* EHD_SESSION_INT_H */
