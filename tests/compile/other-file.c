// SPDX-License-Identifier: MIT
/* The second file of two-per-line.c: a provider defined elsewhere. */
#include <eventheader/eh-provider.h>

EH_DECLARE_PROVIDER(ct_prov);

int other_file_write(void);

int other_file_write(void)
{
	return EH_WRITE(ct_prov, "G", EH_LEVEL(5), EH_KEYWORD(0x10), EH_STRING8("s", "other"));
}
