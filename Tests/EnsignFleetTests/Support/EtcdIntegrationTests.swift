import Testing

/// Every test that runs real etcd members. They run one at a time (they start processes and
/// some measure latency); without etcd installed they fail, saying how to install it.
///
/// They block their threads, but do not take `.blocksItsThread`: a test waiting there for a
/// turn is already inside its time limit, and one at a time they hold one of the concurrency
/// runtime's threads for a second at most.
@Suite("etcd integration", .serialized, .timeLimit(.minutes(3)))
enum EtcdIntegrationTests {}
