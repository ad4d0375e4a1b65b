import Ensign
import Observation

/// The in-app debug menu's state and actions, as an `@Observable` main-actor model: the
/// entries grouped by namespace, a search filter, and the writes a menu makes, with the
/// message of the last one.
///
/// A view shows ``groups`` and calls ``toggle(_:)``, ``set(_:text:)`` and ``reset(_:)``;
/// the model refreshes its entries after each write it makes and whenever the context changes
/// elsewhere (a reload, `ensign set`, the app's own writes). `EnsignSwiftUI`'s
/// `AppContextDebugMenu` is a view of this model and nothing more; the model holds every
/// piece of the menu's logic, so it is tested on every platform.
///
/// ```swift
/// @MainActor func showDebugMenu(for context: AppContext) {
///     let menu = DebugMenuModel(context: context)
///     menu.filter = "beneficiaries"
///     menu.toggle("beneficiaries.showPendingList")
///     print(menu.message)   // toggled beneficiaries.showPendingList
/// }
/// ```
@MainActor
@Observable
public final class DebugMenuModel {
    /// The app's name and environment, for a title.
    public let title: String
    /// Every entry and the filter.
    public private(set) var list: DebugMenuList
    /// What the last write did, or why it was refused (starting with ✗); empty at first.
    public private(set) var message = ""
    /// The last refusal or failed refresh, until the next write succeeds.
    public private(set) var lastRefusal: String?

    @ObservationIgnored private let actions: DebugMenuActions
    @ObservationIgnored private var stopWatching: (@Sendable () -> Void)?

    /// A menu of `context`, refreshed whenever the context changes.
    public convenience init(context: AppContext) {
        self.init(backend: ContextDebugMenuBackend(context: context))
    }

    /// A menu over any backend (`ensign menu`'s socket, or a fake in tests).
    public init(backend: any DebugMenuBackend) {
        title = backend.title
        actions = DebugMenuActions(backend: backend)
        list = DebugMenuList()
        refresh()
        do {
            // The backend calls on its own thread; the refresh hops here. A refresh reads the
            // latest entries, so one queued refresh serves every change before it begins.
            let request = RefreshRequest()
            stopWatching = try backend.watch { [weak self] in
                guard request.request() else { return }
                Task { @MainActor in
                    request.begin()
                    self?.refresh()
                }
            }
        } catch {
            report(.refused("cannot watch for changes: \(error)"))
        }
    }

    deinit {
        stopWatching?()
    }

    /// The text a key must contain to be listed (case-insensitive); empty lists every key.
    public var filter: String {
        get { list.filter }
        set { list.filter = newValue }
    }

    /// The entries the filter leaves, by namespace.
    public var groups: [DebugMenuGroup] { list.groups }

    /// Reads every entry again from the backend.
    public func refresh() {
        do {
            list.entries = try actions.backend.entries()
        } catch {
            report(.refused("cannot read the app's keys: \(error)"))
        }
    }

    /// Flips a bool key (another type gets a message saying to edit it).
    public func toggle(_ key: String) {
        guard let entry = list.entry(forKey: key) else { return report(.refused("no key \(key)")) }
        apply(actions.toggle(entry))
    }

    /// Sets a key from typed text: JSON when it parses, otherwise a string.
    public func set(_ key: String, text: String) {
        apply(actions.set(key, text: text))
    }

    /// Removes a key's override.
    public func reset(_ key: String) {
        apply(actions.reset(key))
    }

    private func apply(_ outcome: DebugMenuOutcome) {
        report(outcome)
        // A refused write changed nothing, and a refresh failing after it would replace its
        // reason. A write that was made shows at once, before its change arrives.
        if !outcome.isRefused { refresh() }
    }

    private func report(_ outcome: DebugMenuOutcome) {
        message = outcome.message
        if case .refused(let reason) = outcome {
            lastRefusal = reason
        } else {
            lastRefusal = nil
        }
    }
}
