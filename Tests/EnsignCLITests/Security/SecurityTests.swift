#if os(Linux)
    import Foundation
    import Testing

    /// Attacks that another user prepares for root: directories created first in places
    /// root will use, links where root's files will go, sockets where root's CLI will look.
    /// Each test creates a throwaway user (``ThrowawayUser``), lets it prepare the attack as
    /// itself (``Attacker``), runs the real `ensign` (or the library) as root, and checks the
    /// refusal's message and that nothing the attacker prepared, and nothing of root's they
    /// pointed at, was opened or changed (``AttackScene``).
    ///
    /// Only root can create users and act as them, so the suite runs as root (CI does).
    /// Serialized: one throwaway user at a time, and no attack watches another's files.
    @Suite(
        "Security: what another user prepares is refused before root reads, writes or connects to it",
        .serialized, .enabled(if: geteuid() == 0, "needs root to create a throwaway user and act as it"))
    struct SecurityTests {}
#endif
