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
    ///
    /// A symbolic link is followed and kept: the file it points to is replaced. The new file
    /// keeps the old one's mode (a 0600 profile stays 0600) and, when allowed, its owner. A path
    /// that is not a regular file (a FIFO, a device, a folder) is refused and left alone.
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

        let target = url.resolvingSymlinksInPath()
        var existing = stat()
        let exists = stat(target.path, &existing) == 0
        if exists, existing.st_mode & S_IFMT != S_IFREG {
            throw .unwritable(path: path, reason: "it is not a regular file")
        }
        let folder = target.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try data.write(to: temporary, options: .withoutOverwriting)
            let handle = try FileHandle(forUpdating: temporary)
            defer { try? handle.close() }
            if exists {
                guard fchmod(handle.fileDescriptor, existing.st_mode & 0o7777) == 0 else {
                    throw ProfileStoreError.unwritable(path: path, reason: String(cString: strerror(errno)))
                }
                // Only root may give a file away; anyone else keeps the file as their own.
                _ = fchown(handle.fileDescriptor, existing.st_uid, existing.st_gid)
            }
            try handle.synchronize()
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            if let error = error as? ProfileStoreError { throw error }
            throw .unwritable(path: path, reason: "\(error.localizedDescription)")
        }
        guard rename(temporary.path, target.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw .unwritable(path: path, reason: reason)
        }
    }
}

/// Checks an email address before it is saved.
public enum EmailAddress {
    /// Why `text` is not an email address this editor saves, or `nil` when it is one: 3 to 254
    /// characters, one `@` with text on both sides, a dot in the domain, no spaces or control
    /// characters.
    public static func problem(with text: String) -> String? {
        if text.isEmpty { return "the email is empty" }
        if text.count > 254 { return "the email is longer than 254 characters" }
        if text.unicodeScalars.contains(where: {
            CharacterSet.whitespacesAndNewlines.contains($0) || CharacterSet.controlCharacters.contains($0)
        }) {
            return "the email contains a space or a control character"
        }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            return "the email must have one @ with a name before it and a domain after it, such as a@b.c"
        }
        let domain = parts[1]
        guard domain.contains("."), !domain.hasPrefix("."), !domain.hasSuffix(".") else {
            return "the email's domain must have a dot inside it, such as b.c"
        }
        return nil
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
