/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The results log's on-disk structures, byte by byte (docs/records.md has
 * the same tables). Private to results_log*.c: everything else goes through
 * results_log.h. Integers are little-endian; each structure ends in a CRC-32
 * of the bytes before it.
 */
#ifndef IOMATRIX_RECORDS_RESULTS_LOG_DISK_H
#define IOMATRIX_RECORDS_RESULTS_LOG_DISK_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "lib/le.h"
#include "records/results_log.h"

/* Block 0. */
#define H_MAGIC	      "IOMXLOG\0"
#define H_OFF_VERSION 8
#define H_OFF_BLOCK   12
#define H_OFF_LOG_ID  16
#define H_OFF_CREATED 24
#define H_OFF_DATA    32
#define H_OFF_RUN_ID  40 /* RLOG_RUN_ID_MAX + 1 bytes, NUL-padded */
#define H_OFF_CRC     124
#define H_SIZE	      128

/* Blocks 1 and 2: the slot of generation g is block 1 + g % 2. */
#define P_MAGIC	      "IOMXPRG\0"
#define P_OFF_VERSION 8
#define P_OFF_STATE   12
#define P_OFF_LOG_ID  16
#define P_OFF_GEN     24
#define P_OFF_TIME    32
#define P_OFF_CELL    40
#define P_OFF_COUNT   44
#define P_OFF_REPEAT  48
#define P_OFF_SEQ     52
#define P_OFF_BOOTS   56
#define P_OFF_NOTE    64 /* RLOG_NOTE_MAX + 1 bytes, NUL-padded */
#define P_OFF_CRC     252
#define P_SIZE	      256

/* Block RLOG_DATA_START: the run info, RLOG_RUN_INFO_BYTES long with its header. */
#define I_MAGIC	      "IOMXRUN\0"
#define I_OFF_VERSION 8
#define I_OFF_LENGTH  12
#define I_OFF_LOG_ID  16
#define I_OFF_TCRC    24 /* of the text */
#define I_OFF_HCRC    28 /* of bytes 0-27 */

/* The first block of records in a log made by rlog_init. */
static inline uint64_t rlog_data_start(uint32_t block_size)
{
	return RLOG_DATA_START + (RLOG_RUN_INFO_BYTES + block_size - 1) / block_size;
}

/* The first RLOG_RECORD_HEADER bytes of a record's first block. */
#define R_MAGIC	      "IOMXREC\0"
#define R_OFF_VERSION 8
#define R_OFF_HSIZE   12
#define R_OFF_LOG_ID  16
#define R_OFF_SEQ     24
#define R_OFF_FLAGS   28
#define R_OFF_LENGTH  32
#define R_OFF_CRC     40 /* of the payload */
#define R_OFF_CELL    44
#define R_OFF_WRITTEN 48
#define R_OFF_REPEAT  56
#define R_OFF_HCRC    60

/* Blocks a record of len bytes takes, its header included. */
static inline uint64_t rlog_record_blocks(uint64_t len, uint32_t block_size)
{
	return (RLOG_RECORD_HEADER + len + block_size - 1) / block_size;
}

/* Encoders of the three structures (results_log.c; their decoders are its own). */
void rlog_encode_header(uint8_t *b, const struct rlog_info *info);
void rlog_encode_progress(uint8_t *b, uint64_t log_id, const struct rlog_progress *p);
void rlog_encode_record_header(uint8_t *b, uint64_t log_id, const struct rlog_entry *e,
			       uint32_t payload_crc, uint64_t written_unix);

/* A reader over *fd (kept by the caller); 0 or -errno. */
int rlog_reader_fd(struct rlog_reader *r, int *fd, size_t align);

#endif
