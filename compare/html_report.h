/* SPDX-License-Identifier: GPL-2.0 */
/* Pieces of the self-contained HTML reports (compare and report share them). */
#ifndef IOMATRIX_COMPARE_HTML_REPORT_H
#define IOMATRIX_COMPARE_HTML_REPORT_H

#include <stdio.h>

/* The document head with the inline style sheet, and <h1>title</h1>. */
void html_begin(FILE *f, const char *title);
void html_end(FILE *f, const char *footer);
/* <tag class="cls">escaped text</tag>; cls may be NULL. */
void html_tag(FILE *f, const char *tag, const char *cls, const char *text);

#endif
