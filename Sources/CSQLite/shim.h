#ifndef CELLAR_CSQLITE_SHIM_H
#define CELLAR_CSQLITE_SHIM_H

#include <sqlite3.h>
#include <sys/types.h>
#include <wchar.h>

/// SQLite's own text of a real, as sqlite3_column_text gives it ("%!.15g"), into buf (n bytes).
static inline void cellar_real_text(double value, char *buf, int n) {
    sqlite3_snprintf(n, buf, "%!.15g", value);
}

/// sqlite3_db_config is variadic, which Swift cannot call: one wrapper per argument shape we use.
static inline int cellar_db_config_int(sqlite3 *db, int op, int value, int *result) {
    return sqlite3_db_config(db, op, value, result);
}

/// sqlite3_config is variadic too: SQLITE_CONFIG_LOG's shape (valid only before sqlite3_initialize).
static inline int cellar_config_log(void (*callback)(void *, int, const char *), void *context) {
    return sqlite3_config(SQLITE_CONFIG_LOG, callback, context);
}

/// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type cellar_transient(void) {
    return SQLITE_TRANSIENT;
}

/// sqlite3_error_offset arrived in 3.38.0; older libraries report "no offset".
static inline int cellar_error_offset(sqlite3 *db) {
#if SQLITE_VERSION_NUMBER >= 3038000
    return sqlite3_error_offset(db);
#else
    (void)db;
    return -1;
#endif
}

/// glibc declares wcwidth only under _XOPEN_SOURCE, which Swift's Glibc module does not set; the result
/// renderer measures display widths with it (the function is in every glibc).
int wcwidth(wchar_t c);
static inline int cellar_wcwidth(unsigned int scalar) {
    return wcwidth((wchar_t)scalar);
}

/// glibc declares sync_file_range only under _GNU_SOURCE, which Swift's Glibc module does not set either;
/// a file being written starts and waits for its writeback with it (Linux 2.6.17 on, in every glibc).
/// The flags are Linux's SYNC_FILE_RANGE_WAIT_BEFORE (1), _WRITE (2) and _WAIT_AFTER (4).
int sync_file_range(int fd, __off64_t offset, __off64_t count, unsigned int flags);
/// Starts the writeback of the dirty pages in the range, without waiting for it.
static inline int cellar_start_writeback(int fd, long long offset, long long count) {
    return sync_file_range(fd, (__off64_t)offset, (__off64_t)count, 2);
}
/// Writes back the range's dirty pages and waits until all of the range's writeback is done.
static inline int cellar_finish_writeback(int fd, long long offset, long long count) {
    return sync_file_range(fd, (__off64_t)offset, (__off64_t)count, 1 | 2 | 4);
}

#endif
