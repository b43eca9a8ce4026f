import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The profile's storage: a JSON object of strings in one file, such as `{"email": "a@b.c"}`.
///
/// ``save(_:)`` writes a temporary file beside the profile, then renames it over the profile,
/// so a save that fails leaves the old file whole, and a reader never sees half a profile.
public struct ProfileStore: Sendable {
    /// The profile file.
    public let url: URL

    /// The profile file's path, as error messages name it.
    public var path: String { url.path }

    /// A store for the profile at `path`.
    public init(path: String) {
        self.url = URL(fileURLWithPath: path)
    }

    /// Whether the profile file exists.
    public var exists: Bool {
        FileManager.default.fileExists(atPath: path)
    }

    /// Reads the profile.
    ///
    /// - Throws: ``ProfileStoreError/missing(path:)`` when there is no file,
    ///   ``ProfileStoreError/invalidJSON(path:)`` when it is not JSON,
    ///   ``ProfileStoreError/notAProfile(path:)`` when it is JSON but not an object of strings,
    ///   ``ProfileStoreError/unreadable(path:reason:)`` when it cannot be read.
    public func load() throws(ProfileStoreError) -> [String: String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .missing(path: path)
        }
        guard !isDirectory.boolValue else {
            throw .unreadable(path: path, reason: "it is a directory")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(path: path, reason: "\(error.localizedDescription)")
        }
        guard (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil else {
            throw .invalidJSON(path: path)
        }
        do {
            return try JSONDecoder().decode([String: String].self, from: data)
        } catch {
            throw .notAProfile(path: path)
        }
    }

    /// Replaces the profile with `profile`: writes a temporary file in the same folder, flushes
    /// it, and renames it over the profile. On failure the temporary file is removed and the
    /// profile is left as it was.
    public func save(_ profile: [String: String]) throws(ProfileStoreError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        var data: Data
        do {
            data = try encoder.encode(profile)
        } catch {
            throw .unwritable(path: path, reason: "\(error)")
        }
        data.append(UInt8(ascii: "\n"))

        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try data.write(to: temporary, options: .withoutOverwriting)
            let handle = try FileHandle(forUpdating: temporary)
            defer { try? handle.close() }
            try handle.synchronize()
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw .unwritable(path: path, reason: "\(error.localizedDescription)")
        }
        guard rename(temporary.path, path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw .unwritable(path: path, reason: reason)
        }
    }
}

/// Why the profile could not be loaded or saved; each description is one line naming the file.
public enum ProfileStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    case missing(path: String)
    case invalidJSON(path: String)
    case notAProfile(path: String)
    case unreadable(path: String, reason: String)
    case unwritable(path: String, reason: String)

    public var description: String {
        switch self {
        case .missing(let path):
            "no profile at \(path)"
        case .invalidJSON(let path):
            "the profile at \(path) is not valid JSON"
        case .notAProfile(let path):
            "the profile at \(path) is not a JSON object of strings"
        case .unreadable(let path, let reason):
            "cannot read the profile at \(path): \(reason)"
        case .unwritable(let path, let reason):
            "cannot save the profile at \(path): \(reason)"
        }
    }
}
