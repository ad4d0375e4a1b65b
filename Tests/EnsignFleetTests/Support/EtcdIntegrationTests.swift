import Testing

/// Every test that runs real etcd members. They run one at a time (they start processes and
/// some measure latency); without etcd installed they fail, saying how to install it.
@Suite("etcd integration", .serialized, .timeLimit(.minutes(3)))
enum EtcdIntegrationTests {}
