// libmicrohttpd's C API for EnsignServe, and the few calls Swift cannot make directly:
// MHD_start_daemon and MHD_get_daemon_info are variadic, the logger takes a va_list, and some
// constants are cast macros.
#ifndef ENSIGN_CMICROHTTPD_SHIM_H
#define ENSIGN_CMICROHTTPD_SHIM_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
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

/// Called with the request line's target as soon as the request line is in, before the
/// header fields; what it returns becomes the request's context (`con_cls`).
typedef void *(*ensign_mhd_request_line_callback)(void *cls, const char *uri, struct MHD_Connection *connection);

/// Called with each of libmicrohttpd's own messages (a refused connection, a failed TLS
/// handshake), already formatted.
typedef void (*ensign_mhd_message_callback)(void *cls, const char *message);

/// Everything a daemon is started with; zero or NULL leaves an option at libmicrohttpd's default.
struct ensign_mhd_settings {
    unsigned int flags;
    const struct sockaddr *address;
    unsigned int thread_pool_size;
    unsigned int connection_limit;
    size_t connection_memory_limit;
    unsigned int connection_timeout_seconds;
    unsigned int listen_backlog;
    unsigned int per_address_connection_limit;
    /// PEM text, NUL-terminated; both or neither (TLS needs MHD_USE_TLS in `flags`).
    const char *tls_key_pem;
    const char *tls_certificate_pem;
    MHD_AcceptPolicyCallback accept_policy;
    MHD_AccessHandlerCallback handler;
    MHD_RequestCompletedCallback completed;
    MHD_NotifyConnectionCallback connection_notification;
    ensign_mhd_request_line_callback request_line;
    ensign_mhd_message_callback message;
    /// Handed to every callback above.
    void *context;
};

/// Formats one of libmicrohttpd's messages and hands it to the settings' message callback.
static void ensign_mhd_log_trampoline(void *cls, const char *format, va_list arguments) {
    const struct ensign_mhd_settings *settings = (const struct ensign_mhd_settings *)cls;
    char text[512];
    vsnprintf(text, sizeof text, format, arguments);
    size_t length = strlen(text);
    while (length > 0 && (text[length - 1] == '\n' || text[length - 1] == '\r')) text[--length] = '\0';
    settings->message(settings->context, text);
}

/// Starts a daemon; NULL when it cannot start (errno says why). `settings` must outlive the
/// daemon when it has a message callback (the logger reads it).
static inline struct MHD_Daemon *ensign_mhd_start(const struct ensign_mhd_settings *settings) {
    struct MHD_OptionItem options[20];
    int count = 0;
#define ENSIGN_OPTION(name, integer, pointer) \
    options[count].option = (name);           \
    options[count].value = (intptr_t)(integer); \
    options[count].ptr_value = (void *)(pointer); \
    count++;
    // The logger first, so that libmicrohttpd's messages about the other options reach it.
    if (settings->message != NULL) {
        ENSIGN_OPTION(MHD_OPTION_EXTERNAL_LOGGER, ensign_mhd_log_trampoline, settings);
    }
    ENSIGN_OPTION(MHD_OPTION_SOCK_ADDR, 0, settings->address);
    ENSIGN_OPTION(MHD_OPTION_NOTIFY_COMPLETED, settings->completed, settings->context);
    ENSIGN_OPTION(MHD_OPTION_NOTIFY_CONNECTION, settings->connection_notification, settings->context);
    ENSIGN_OPTION(MHD_OPTION_URI_LOG_CALLBACK, settings->request_line, settings->context);
    ENSIGN_OPTION(MHD_OPTION_UNESCAPE_CALLBACK, ensign_mhd_keep_escaped, NULL);
    if (settings->thread_pool_size > 1) {
        ENSIGN_OPTION(MHD_OPTION_THREAD_POOL_SIZE, settings->thread_pool_size, NULL);
    }
    if (settings->connection_limit > 0) {
        ENSIGN_OPTION(MHD_OPTION_CONNECTION_LIMIT, settings->connection_limit, NULL);
    }
    if (settings->connection_memory_limit > 0) {
        ENSIGN_OPTION(MHD_OPTION_CONNECTION_MEMORY_LIMIT, settings->connection_memory_limit, NULL);
    }
    ENSIGN_OPTION(MHD_OPTION_CONNECTION_TIMEOUT, settings->connection_timeout_seconds, NULL);
    if (settings->listen_backlog > 0) {
        ENSIGN_OPTION(MHD_OPTION_LISTEN_BACKLOG_SIZE, settings->listen_backlog, NULL);
    }
    if (settings->per_address_connection_limit > 0) {
        ENSIGN_OPTION(MHD_OPTION_PER_IP_CONNECTION_LIMIT, settings->per_address_connection_limit, NULL);
    }
    if (settings->tls_key_pem != NULL && settings->tls_certificate_pem != NULL) {
        ENSIGN_OPTION(MHD_OPTION_HTTPS_MEM_KEY, 0, settings->tls_key_pem);
        ENSIGN_OPTION(MHD_OPTION_HTTPS_MEM_CERT, 0, settings->tls_certificate_pem);
    }
    ENSIGN_OPTION(MHD_OPTION_END, 0, NULL);
#undef ENSIGN_OPTION
    return MHD_start_daemon(
        settings->flags | (settings->message != NULL ? MHD_USE_ERROR_LOG : 0), 0, settings->accept_policy,
        settings->context, settings->handler, settings->context, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// The port the daemon listens on (the one the system chose for port 0).
static inline uint16_t ensign_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// The per-connection pointer libmicrohttpd keeps for the connection-notification callback.
static inline void *ensign_mhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/// The connection's socket.
static inline int ensign_mhd_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// Whether libmicrohttpd was built with TLS (GnuTLS).
static inline int ensign_mhd_has_tls(void) { return MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES; }

/// Whether libmicrohttpd can use epoll here.
static inline int ensign_mhd_has_epoll(void) { return MHD_is_feature_supported(MHD_FEATURE_EPOLL) == MHD_YES; }

/// A content reader's "the stream is over".
static inline ssize_t ensign_mhd_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }

/// The size of a response whose length is not known in advance (an event stream).
static inline uint64_t ensign_mhd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }

#endif
