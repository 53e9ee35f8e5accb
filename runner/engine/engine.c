// SPDX-License-Identifier: GPL-2.0
/* The engines by ioengine= value; see engine.h. */
#include "runner/engine/engine.h"

static const struct {
	uint32_t id;
	const struct engine_ops *ops;
} engines[] = {
	{ ENGINE_PSYNC, &engine_psync_ops },	   { ENGINE_SYNC, &engine_sync_ops },
	{ ENGINE_NULL, &engine_null_ops },	   { ENGINE_LIBAIO, &engine_libaio_ops },
	{ ENGINE_IO_URING, &engine_io_uring_ops },
};

const struct engine_ops *engine_find(uint32_t engine_id)
{
	for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		if (engines[i].id == engine_id)
			return engines[i].ops;
	return NULL;
}
