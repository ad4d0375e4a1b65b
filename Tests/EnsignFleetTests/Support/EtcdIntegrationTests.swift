import Testing

/// Every test that runs real etcd members. They run one at a time (they start processes and
/// some measure latency), and are skipped, saying how to install etcd, when it is absent.
@Suite(
    "etcd integration", .serialized, .enabled(if: EtcdCluster.isAvailable, EtcdCluster.skipMessage),
    .timeLimit(.minutes(3)))
enum EtcdIntegrationTests {}
