import EnsignTestSupport

@testable import Ensign

/// Observe-all observers on every context: each step's change batches, old and new values
/// included, are compared with what the model says changed.
extension ModelHarness {
    /// Registers the observe-all observer of the context in `slot`.
    func observeAll(slot: Int) {
        guard let context = contexts[slot] else { return }
        batchTokens[slot] = context.observeAll(label: "all c\(slot)") { [receivedBatches] batch in
            receivedBatches.record((slot, batch))
        }
    }

    /// Takes the batches received since the last call.
    func drainBatches() -> [(slot: Int, batch: ChangeBatch)] {
        receivedBatches.takeAll()
    }
}
