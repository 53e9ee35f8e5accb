// SPDX-License-Identifier: GPL-2.0
/* One record to every channel, in the order that keeps them agreeing; see results_out.h. */
#include "records/results_out.h"

#include <stdio.h>
#include <string.h>

#include "records/serial_frame.h"

int results_out_lines(int fd, int kmsg_level, const struct rlog_entry *e)
{
	return kmsg_level >= 0 ? frame_write_record_kmsg(fd, kmsg_level, e->seq, e->data, e->len)
			       : frame_write_record(fd, e->seq, e->data, e->len);
}

int results_out_record(const struct results_out *o, const struct rlog_entry *e, char *err,
		       size_t errlen)
{
	char why[RLOG_ERR_LEN] = "";
	int ret = 0;

	err[0] = '\0';
	if (o->log && rlog_append(o->log, e, why, sizeof(why))) {
		snprintf(err, errlen, "%s", why);
		ret = -1;
	}
	for (int c = 0; o->serial_fd >= 0 && c < (o->copies > 1 ? o->copies : 1); c++) {
		int r = results_out_lines(o->serial_fd, o->kmsg_level, e);

		if (r) {
			size_t n = strlen(err);

			snprintf(err + n, errlen - n, "%sserial: record %u: %s", n ? "; " : "",
				 e->seq, strerror(-r));
			ret = -1;
			break;
		}
	}
	return ret;
}
