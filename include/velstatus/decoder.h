/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file velstatus/decoder.h
 * @brief The streaming itemoperations decoder: the host feeds the text in
 * chunks of any size, as it reads them, and never holds the whole file.
 *
 * It decodes exactly what velstatus_oplist_from_json() decodes (that call is
 * this decoder fed once): the same records, the same errors with the same
 * messages, lines, columns and byte offsets, however the text is cut. It
 * does no I/O: reading (and decompressing) is the host's. It keeps only what
 * it has not decoded yet, a record cut by a chunk's end, plus the records
 * decoded so far. See `doc/json-decoding.md`.
 *
 * @code
 * velstatus_oplist_decoder *d;
 * velstatus_oplist *list;
 * velstatus_oplist_decoder_new(&d, ctx, VELSTATUS_KIND_BACKUP, &err);
 * while ((n = read_some(buf, sizeof buf)) > 0)
 *     if (velstatus_oplist_decoder_feed(d, buf, n, &err) != VELSTATUS_OK)
 *         break;                                   // err names the field and position
 * st = velstatus_oplist_decoder_finish(&list, d, &err);  // the error again, or the list
 * velstatus_oplist_decoder_free(d);
 * @endcode
 *
 * @defgroup decoder Streaming decoder
 * @{
 */
#ifndef VELSTATUS_DECODER_H
#define VELSTATUS_DECODER_H

#include "common.h"
#include "host.h"
#include "oplist.h"
#include "status.h"

VELSTATUS_BEGIN_DECLS

/** @brief An opaque decoder of one itemoperations file fed in chunks. */
typedef struct velstatus_oplist_decoder velstatus_oplist_decoder;

/**
 * @brief Creates a decoder for a file of that kind.
 * @param[out] out Receives the decoder.
 * @param[in] ctx The context whose allocator the decoder and the list use.
 * @param[in] kind ::VELSTATUS_KIND_BACKUP or ::VELSTATUS_KIND_RESTORE.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL out or ctx, unknown kind)
 *         or ::VELSTATUS_E_NOMEM.
 * @owned Release with velstatus_oplist_decoder_free().
 */
VELSTATUS_API velstatus_status velstatus_oplist_decoder_new(velstatus_oplist_decoder **out, velstatus_ctx *ctx,
                                                            velstatus_kind kind, velstatus_error *err);

/**
 * @brief Creates a decoder that takes the file's kind from its text, for a
 * host that does not know whether it reads a backup's or a restore's file.
 *
 * The kind is settled by the first key of a record's `spec` that only one
 * kind has, matched as the decoder matches keys (exact, else case-folded):
 * `backupName`, `backupUID`, `backupItemAction` or `postOperationItems` make
 * it a backup file, `restoreName`, `restoreUID` or `restoreItemAction` a
 * restore file. Velero writes the kind's name first in every record. Until
 * such a key comes, every record decodes the same for both kinds, so the
 * decoder holds no more than one of a known kind would; a file without such
 * a key is a backup file. velstatus_oplist_kind() of the list says which.
 * Keys outside `spec` (a `status.description` that mentions `restoreName`)
 * never decide. Otherwise as velstatus_oplist_decoder_new().
 *
 * @param[out] out Receives the decoder.
 * @param[in] ctx The context whose allocator the decoder and the list use.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL out or ctx) or ::VELSTATUS_E_NOMEM.
 * @owned Release with velstatus_oplist_decoder_free().
 */
VELSTATUS_API velstatus_status velstatus_oplist_decoder_new_detect(velstatus_oplist_decoder **out, velstatus_ctx *ctx,
                                                                   velstatus_error *err);

/**
 * @brief Decodes the next piece of the text: the records it completes are
 * decoded now, a record it cuts is kept (copied) until a later piece
 * completes it.
 *
 * A cut record is tried again once the decoder holds twice the bytes it held
 * at the last try (or at velstatus_oplist_decoder_finish()), so a long record
 * fed in small pieces costs linear time, and the decoder holds at most about
 * twice the longest record plus one piece.
 *
 * The first error ends the decoding: this call and every later feed and
 * velstatus_oplist_decoder_finish() return it, with the message and the
 * position (in the whole text) that velstatus_oplist_from_json() gives for
 * the same text. An error is reported as soon as no continuation of the
 * text could avoid it, so some come only at velstatus_oplist_decoder_finish().
 *
 * @param[in,out] dec The decoder.
 * @param[in] p The next bytes of the text (not kept after the call; need not
 *        be NUL-terminated; a chunk may end anywhere, inside a UTF-8 sequence too).
 * @param[in] len Their number, or #VELSTATUS_NUL_TERMINATED; 0 does nothing.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL dec, NULL p with len > 0,
 *         a decoder already finished), or the decoding's error:
 *         ::VELSTATUS_E_PARSE, ::VELSTATUS_E_SCHEMA, ::VELSTATUS_E_RANGE or
 *         ::VELSTATUS_E_NOMEM, as for velstatus_oplist_from_json().
 */
VELSTATUS_API velstatus_status velstatus_oplist_decoder_feed(velstatus_oplist_decoder *dec, const char *p, size_t len,
                                                             velstatus_error *err);

/**
 * @brief Ends the text: decodes what is left and hands over the list.
 * @param[out] out Receives the list (untouched on failure).
 * @param[in,out] dec The decoder; afterwards only velstatus_oplist_decoder_free() applies.
 * @param[out] err Error details on failure, or NULL.
 * @return ::VELSTATUS_OK, ::VELSTATUS_E_INVALID (NULL out or dec, a decoder
 *         already finished) or the decoding's error, as velstatus_oplist_decoder_feed().
 * @owned On success release the list with velstatus_oplist_free().
 */
VELSTATUS_API velstatus_status velstatus_oplist_decoder_finish(velstatus_oplist **out, velstatus_oplist_decoder *dec,
                                                               velstatus_error *err);

/**
 * @brief Releases a decoder and the records it holds (not a list it handed over).
 * @param[in] dec The decoder, or NULL.
 */
VELSTATUS_API void velstatus_oplist_decoder_free(velstatus_oplist_decoder *dec);

/**
 * @brief The number of records decoded so far.
 * @param[in] dec The decoder (NULL gives 0).
 * @return The count (after velstatus_oplist_decoder_finish(), that of the list).
 */
VELSTATUS_API size_t velstatus_oplist_decoder_count(const velstatus_oplist_decoder *dec);

VELSTATUS_END_DECLS

/** @} */
#endif /* VELSTATUS_DECODER_H */
