import Foundation
import Testing

/// Every Swift snippet of these articles must be quoted from code that a test target or the
/// examples package compiles, so that a snippet cannot drift from the library.
@Suite("Article snippets are compiled")
struct SnippetTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    static let articles = [
        "Sources/Lockstep/Documentation.docc/ChoosingASideEffectStyle.md",
        "Sources/Lockstep/Documentation.docc/Dependencies.md",
        "Sources/Lockstep/Documentation.docc/BuildingAReadingList.md",
        "Sources/Lockstep/Documentation.docc/ComingFromTCA.md",
        "Sources/Lockstep/Documentation.docc/ComingFromReSwift.md",
        "Sources/Lockstep/Documentation.docc/ComingFromSwiftOperation.md",
        "Sources/Lockstep/Documentation.docc/Glossary.md",
        "Sources/Lockstep/Documentation.docc/OptimisticUpdates.md",
        "Sources/Lockstep/Documentation.docc/SwiftUI.md",
        "Sources/LockstepCasePaths/Documentation.docc/LockstepCasePaths.md",
    ]

    /// Where quoted code lives: this target, LockstepCasePaths' tests, and the reading-list
    /// example with its tests.
    static let compiledFolders = [
        "Tests/DocumentationTests",
        "Tests/LockstepCasePathsTests",
        "Examples/Sources/ReadingList",
        "Examples/Tests/ReadingListTests",
    ]

    /// Lines without their indentation, blank lines dropped: a snippet may be dedented.
    static func normalized(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    static func swiftSnippets(in article: String) -> [String] {
        var snippets: [String] = []
        var current: [Substring]?
        for line in article.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if current != nil, trimmed == "```" {
                snippets.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return snippets
    }

    static func compiledSource() throws -> String {
        var lines: [String] = []
        for folder in compiledFolders {
            let url = root.appendingPathComponent(folder)
            let files = try FileManager.default.contentsOfDirectory(atPath: url.path)
                .filter { $0.hasSuffix(".swift") }
                .sorted()
            for file in files {
                let text = try String(contentsOf: url.appendingPathComponent(file), encoding: .utf8)
                lines += normalized(text)
            }
        }
        return "\n" + lines.joined(separator: "\n") + "\n"
    }

    @Test(arguments: articles)
    func everySnippetIsQuotedFromCompiledCode(article: String) throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent(article), encoding: .utf8)
        let source = try Self.compiledSource()
        for snippet in Self.swiftSnippets(in: text) {
            let quoted = "\n" + Self.normalized(snippet).joined(separator: "\n") + "\n"
            #expect(
                source.contains(quoted),
                "This snippet of \(article) is not quoted from compiled code in \(Self.compiledFolders):\n\(snippet)"
            )
        }
    }
}
