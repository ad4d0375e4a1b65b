#if os(Linux)
    import EnsignTestSupport
    import Foundation

    /// The other user's hands: everything an attack prepares is created by
    /// `EnsignControlProbe plant-as`, which drops from root to the throwaway user first, so
    /// owners, modes and links are exactly what that user could make on their own.
    struct Attacker {
        let user: ThrowawayUser

        /// One thing to create.
        enum Step {
            /// A directory with exactly this mode.
            case directory(String, mode: mode_t)
            /// A new file with this mode and text (created exclusively, never through a link).
            case file(String, mode: mode_t = 0o644, text: String)
            /// A symbolic link at the path, pointing to the target.
            case link(String, to: String)

            var arguments: [String] {
                switch self {
                case .directory(let path, let mode): ["dir", path, String(mode, radix: 8)]
                case .file(let path, let mode, let text): ["file", path, String(mode, radix: 8), text]
                case .link(let path, let target): ["link", path, target]
                }
            }
        }

        /// Creates every step's thing, in order, as the attacker; throws when one fails.
        func plant(_ steps: [Step]) throws {
            let result = try BuiltExecutable.run(
                "EnsignControlProbe", ["plant-as", "\(user.uid)", "\(user.gid)"] + steps.flatMap(\.arguments),
                timeout: .seconds(30))
            guard result.status == 0 else {
                throw PlantingFailed(description: "the attacker could not plant: \(result.output)\(result.errors)")
            }
        }

        struct PlantingFailed: Error, CustomStringConvertible {
            let description: String
        }
    }
#endif
