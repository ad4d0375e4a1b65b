/// Where a part of a rule is, from the rule's root: the compiler extends it at every node it
/// descends into, so each path shares its parent's components instead of copying them, and
/// spells them out as an array only for a problem or a possible result.
///
/// Copying an array at every node was about a tenth of compiling a small rule.
struct TargetingPath: Sendable {
    /// The last component and the path before it; immutable, so shared freely.
    private final class Link: Sendable {
        let parent: Link?
        let component: TargetingPathComponent
        let count: Int

        init(parent: Link?, component: TargetingPathComponent) {
            self.parent = parent
            self.component = component
            self.count = (parent?.count ?? 0) + 1
        }
    }

    private let last: Link?

    /// The rule's root.
    static let root = TargetingPath(last: nil)

    private init(last: Link?) {
        self.last = last
    }

    /// This path followed by `component`.
    func appending(_ component: TargetingPathComponent) -> TargetingPath {
        TargetingPath(last: Link(parent: last, component: component))
    }

    /// The components from the root.
    var components: [TargetingPathComponent] {
        guard let last else { return [] }
        var components = [TargetingPathComponent](repeating: .index(0), count: last.count)
        var link: Link? = last
        while let current = link {
            components[current.count - 1] = current.component
            link = current.parent
        }
        return components
    }
}

extension TargetingPath: Hashable {
    static func == (lhs: TargetingPath, rhs: TargetingPath) -> Bool {
        var (left, right) = (lhs.last, rhs.last)
        while let l = left, let r = right {
            if l === r { return true }
            guard l.count == r.count, l.component == r.component else { return false }
            (left, right) = (l.parent, r.parent)
        }
        return left == nil && right == nil
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(components)
    }
}
