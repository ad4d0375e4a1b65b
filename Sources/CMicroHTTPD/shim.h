// libmicrohttpd's C API for EnsignServe, and the few calls Swift cannot make directly:
// MHD_start_daemon and MHD_get_daemon_info are variadic, and some constants are cast macros.
#ifndef ENSIGN_CMICROHTTPD_SHIM_H
#define ENSIGN_CMICROHTTPD_SHIM_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <microhttpd.h>

/// Leaves the request path percent-encoded: the OFREP service decodes the flag key itself,
/// so that an encoded '/' in a key stays part of the key.
static size_t ensign_mhd_keep_escaped(void *cls, struct MHD_Connection *connection, char *uri) {
    (void)cls;
    (void)connection;
    return strlen(uri);
}

/// Starts a daemon on `address` with the limits EnsignServe sets; NULL when it cannot start.
static inline struct MHD_Daemon *ensign_mhd_start(
    unsigned int flags, const struct sockaddr *address, MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, void *completed_context, unsigned int connection_limit,
    size_t connection_memory_limit, unsigned int connection_timeout_seconds, size_t thread_stack_size) {
    return MHD_start_daemon(
        flags, 0, NULL, NULL, handler, handler_context,
        MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
        MHD_OPTION_THREAD_STACK_SIZE, thread_stack_size,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
        MHD_OPTION_UNESCAPE_CALLBACK, ensign_mhd_keep_escaped, NULL,
        MHD_OPTION_END);
}

/// The port the daemon listens on (the one the system chose for port 0).
static inline uint16_t ensign_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// How many connections the daemon has open.
static inline unsigned int ensign_mhd_connection_count(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info == NULL ? 0 : info->num_connections;
}

/// A content reader's "the stream is over".
static inline ssize_t ensign_mhd_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }

/// The size of a response whose length is not known in advance (an event stream).
static inline uint64_t ensign_mhd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }

#endif
