import Foundation
import Testing

/// Every Swift snippet of every DocC article (each `Sources/*/Documentation.docc/*.md`, found by
/// listing the catalogs, so a new article is covered without being named here) and of the README
/// must be quoted from code that a test target or the examples package compiles, so that a
/// snippet cannot drift from the library.
@Suite("Article snippets are compiled")
struct SnippetTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The README and every article of every catalog.
    static let articles: [String] = {
        let sources = root.appendingPathComponent("Sources")
        let modules = (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []
        var articles = ["README.md"]
        for module in modules.sorted() {
            let catalog = "Sources/\(module)/Documentation.docc"
            let files = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(catalog).path)) ?? []
            articles += files.filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
        }
        return articles
    }()

    /// Where quoted code lives, searched with their subfolders: the main package's test targets
    /// and the examples package (both built by CI). `Tests/CompileErrors` holds code that must
    /// not compile, so it is left out.
    static let compiledFolders = ["Tests", "Examples/Sources", "Examples/Tests"]
    static let notCompiled = ["Tests/CompileErrors"]

    /// The snippets that are deliberately not Swift code a target compiles, by article and the
    /// start of one of the snippet's lines. Each is checked another way, named in its reason.
    static let notCode: [(article: String, line: String, reason: String)] = [
        (
            "README.md", "dependencies: [",
            "A fragment of an app's Package.swift: its version is checked against CHANGELOG.md by packageSnippetsNameTheRealPackage"
        ),
        (
            "Sources/Lockstep/Documentation.docc/Lockstep.md", ".package(url: \"https://github.com/lockstep-swift/lockstep\"",
            "A line of an app's Package.swift: its version is checked against CHANGELOG.md by packageSnippetsNameTheRealPackage"
        ),
        (
            "Sources/LockstepTesting/Documentation.docc/TestingSingleEntryPoints.md", "func testUserStoryWithEffects() {",
            "The synchronous XCTest form other GIVEN/WHEN/THEN runners use, shown to compare: with Lockstep runTests() is awaited, and a String is not an Error. The Lockstep form that follows it is compiled"
        ),
        (
            "Sources/LockstepQuery/Documentation.docc/Testing.md", "// Wait for value to load...",
            "A test that deliberately does not wait, shown to explain why it fails; the tests that follow it, which wait, are compiled"
        ),
        (
            "README.md", ".package(url: \"https://github.com/lockstep-swift/lockstep\"",
            "The install line of the first screen, a line of an app's Package.swift: its version is checked against CHANGELOG.md by packageSnippetsNameTheRealPackage"
        ),
        (
            "Sources/Lockstep/Documentation.docc/MigratingFrom0_1.md", "let store = Store(state: KioskState(), reducer: kioskReducer, services: services, middlewares: [",
            "The 0.1.0 spelling the article replaces: it no longer compiles, and Tests/CompileErrors/LiftedMiddlewaresInArray.swift checks the message the compiler gives for it"
        ),
        (
            "README.md", "targets: [",
            "A fragment of an app's Package.swift: its product names are checked against Package.swift by packageSnippetsNameTheRealPackage"
        ),
    ]

    /// Lines without their indentation, blank lines and doc comments dropped: a snippet may be
    /// dedented, and may leave out the doc comments of the code it quotes.
    static func normalized(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("///") }
    }

    /// The Swift code blocks of an article, those in a block quote (a note) included.
    static func swiftSnippets(in article: String) -> [String] {
        var snippets: [String] = []
        var current: [Substring]?
        for fullLine in article.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = fullLine
            if line.trimmingCharacters(in: .whitespaces).hasPrefix(">") {
                line = line.drop { $0 == " " }.dropFirst()
            }
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

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    static let compiledSource: String = {
        var lines: [String] = []
        for folder in compiledFolders {
            let url = root.appendingPathComponent(folder)
            guard let enumerator = FileManager.default.enumerator(atPath: url.path) else { continue }
            let files = enumerator.compactMap { $0 as? String }
                .filter { $0.hasSuffix(".swift") }
                .filter { file in !notCompiled.contains { "\(folder)/\(file)".hasPrefix($0 + "/") } }
                .sorted()
            for file in files {
                guard let text = try? String(contentsOf: url.appendingPathComponent(file), encoding: .utf8) else { continue }
                lines += normalized(text)
            }
        }
        return "\n" + lines.joined(separator: "\n") + "\n"
    }()

    static func firstLine(_ snippet: String) -> String {
        normalized(snippet).first ?? ""
    }

    static func snippet(_ snippet: String, hasLine line: String) -> Bool {
        normalized(snippet).contains { $0.hasPrefix(line) }
    }

    @Test("The catalogs are found, so that the check below covers them")
    func articlesAreFound() {
        #expect(Self.articles.count > 30)
        #expect(Self.articles.contains("Sources/LockstepQuery/Documentation.docc/GettingStarted.md"))
    }

    @Test(arguments: articles)
    func everySnippetIsQuotedFromCompiledCode(article: String) throws {
        let text = try Self.text(article)
        for snippet in Self.swiftSnippets(in: text) {
            if Self.notCode.contains(where: { $0.article == article && Self.snippet(snippet, hasLine: $0.line) }) {
                continue
            }
            let quoted = "\n" + Self.normalized(snippet).joined(separator: "\n") + "\n"
            let isQuoted = Self.compiledSource.contains(quoted)
            #expect(
                isQuoted,
                "This snippet of \(article) is not quoted from compiled code in \(Self.compiledFolders):\n\(snippet)"
            )
        }
    }

    @Test("Each exception names a snippet that still exists")
    func everyExceptionIsUsed() throws {
        for exception in Self.notCode {
            let snippets = Self.swiftSnippets(in: try Self.text(exception.article))
            #expect(
                snippets.contains { Self.snippet($0, hasLine: exception.line) },
                "No snippet of \(exception.article) has the line \(exception.line)"
            )
        }
    }

    /// The Package.swift fragments of the README and the articles: the version is the newest
    /// released one of the changelog (the one Package.swift names), and every product exists.
    @Test("The README's Package.swift fragments name the real version and products")
    func packageSnippetsNameTheRealPackage() throws {
        let readme = Self.swiftSnippets(in: try Self.text("README.md"))
        let manifest = try Self.text("Package.swift")
        let changelog = try Self.text("CHANGELOG.md")

        let released = try #require(changelog.firstMatch(of: /\n## ([0-9]+\.[0-9]+\.[0-9]+)/)?.1)
        #expect(manifest.contains("Lockstep \(released) (CHANGELOG.md)"))
        #expect(manifest.contains("lockstep\", from: \"\(released)\")"))
        var packageLines = 0
        for article in Self.articles {
            for snippet in Self.swiftSnippets(in: try Self.text(article)) {
                for match in snippet.matches(of: /\.package\(url: "https:\/\/github.com\/lockstep-swift\/lockstep", from: "([0-9.]+)"\)/) {
                    packageLines += 1
                    #expect(match.1 == released, "\(article) depends on Lockstep \(match.1), not \(released)")
                }
            }
        }
        #expect(packageLines >= 2)

        let targets = try #require(readme.first { Self.firstLine($0) == "targets: [" })
        let products = targets.matches(of: /\.product\(name: "([A-Za-z]+)", package: "lockstep"\)/).map { String($0.1) }
        #expect(!products.isEmpty)
        for product in products {
            #expect(manifest.contains(".library(name: \"\(product)\""), "Package.swift has no product \(product)")
        }
    }
}
