import Ensign
import Foundation

/// What `ensign serve --flags` names, as a context's definitions directory: a directory or a
/// bundle as it is; a single definitions file (a flagd JSON file, say) through a private
/// directory holding a symbolic link to it, since a context loads directories and bundles.
///
/// The link's directory is watched, not the file's: an edit to a linked file is picked up by
/// the context's stat poll (which follows the link), within its interval.
struct ServedDefinitions {
    /// The directory (or bundle) to give the context.
    let directory: String
    /// The private directory made for a single file, removed by ``remove()``.
    private let linkDirectory: String?

    /// Whether `directory` is a private directory linking to a single file.
    var isLinkedFile: Bool { linkDirectory != nil }

    init(path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            !DefinitionLoader().isBundle(atPath: path)
        else {
            directory = path
            linkDirectory = nil
            return
        }
        let target = URL(fileURLWithPath: path).standardizedFileURL.path
        var template = Array((NSTemporaryDirectory() + "/ensign-serve-XXXXXX").utf8CString)
        guard let pointer = mkdtemp(&template) else {
            throw UsageError(
                "--flags: cannot make a private directory for '\(path)' (\(String(cString: strerror(errno))))")
        }
        let made = String(cString: pointer)
        let link = made + "/" + URL(fileURLWithPath: target).lastPathComponent
        do {
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        } catch {
            try? FileManager.default.removeItem(atPath: made)
            throw UsageError("--flags: cannot link '\(path)' (\(error))")
        }
        directory = made
        linkDirectory = made
    }

    /// Removes the private directory, if one was made.
    func remove() {
        guard let linkDirectory else { return }
        try? FileManager.default.removeItem(atPath: linkDirectory)
    }
}
