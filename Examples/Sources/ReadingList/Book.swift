import Foundation

/// A book on the reading list, as the database keeps it.
public struct Book: Equatable, Sendable, Identifiable, Codable {
    /// The book's number in the database.
    public var id: Int64
    /// The book's title.
    public var title: String

    /// Creates a book.
    public init(id: Int64, title: String) {
        self.id = id
        self.title = title
    }

    /// `#3  Dune`, as the command prints it.
    public var line: String { "#\(id)  \(title)" }
}

/// What the remote catalog knows about a book.
public struct BookDetails: Equatable, Sendable, Codable {
    /// The book's author.
    public var author: String
    /// The book's number of pages.
    public var pages: Int

    /// Creates the details of a book.
    public init(author: String, pages: Int) {
        self.author = author
        self.pages = pages
    }

    /// `Frank Herbert, 412 pages`
    public var summary: String { "\(author), \(pages) pages" }
}

/// What can go wrong with the reading list's database, each with a one-line description.
public enum LibraryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No book has this id.
    case unknownBook(Int64)
    /// The title is empty or too long.
    case invalidTitle(String)
    /// Another book already has this title.
    case duplicateTitle(String)
    /// The database cannot be opened, read or written.
    case storage(String)

    /// The error, in one line.
    public var description: String {
        switch self {
        case .unknownBook(let id): "there is no book #\(id)"
        case .invalidTitle(let reason): "invalid title: \(reason)"
        case .duplicateTitle(let title): "a book titled '\(title)' is already on the list"
        case .storage(let reason): "the reading list database cannot be used: \(reason)"
        }
    }
}

/// What can go wrong with a call to the remote catalog.
public enum CatalogError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The catalog has no book with this title.
    case notFound(String)
    /// The server did not answer.
    case unavailable

    /// The error, in one line.
    public var description: String {
        switch self {
        case .notFound(let title): "the catalog has no book titled '\(title)'"
        case .unavailable: "the catalog is unavailable"
        }
    }
}

/// A title that a book may have: not empty once trimmed, at most 200 characters. Returns the
/// trimmed title, or throws ``LibraryError/invalidTitle(_:)``.
public func validatedTitle(_ title: String) throws(LibraryError) -> String {
    let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else { throw .invalidTitle("the title is empty") }
    guard trimmed.count <= 200 else { throw .invalidTitle("the title is longer than 200 characters") }
    return trimmed
}
