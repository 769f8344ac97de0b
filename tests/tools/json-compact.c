// SPDX-License-Identifier: MIT
/*
 * json-compact - copy standard input to standard output without the
 * blanks that lie outside JSON strings (spaces and tabs; newlines are
 * kept), so that JSON written with and without spaces can be compared
 * byte for byte. Bytes inside strings, valid UTF-8 or not, pass as they
 * are.
 */
#include <stdio.h>

int main(void)
{
	int c, in_string = 0, escaped = 0;

	while ((c = getchar()) != EOF) {
		if (in_string) {
			if (escaped)
				escaped = 0;
			else if (c == '\\')
				escaped = 1;
			else if (c == '"')
				in_string = 0;
		} else if (c == '"') {
			in_string = 1;
		} else if (c == ' ' || c == '\t') {
			continue;
		}
		putchar(c);
	}
	return ferror(stdout) ? 1 : 0;
}
