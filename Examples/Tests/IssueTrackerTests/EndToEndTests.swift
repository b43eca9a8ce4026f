import ExampleTestSupport
import Testing

/// Runs the `issue-tracker` executable and checks what it prints.
@Suite("issue-tracker end to end")
struct EndToEndTests {
    @Test("The first page of the list")
    func firstPage() throws {
        let run = try runExample("issue-tracker", [])
        #expect(run.status == 0)
        #expect(run.output == """
            ☆ #1  Crash on launch
            ☆ #2  Typo in settings
            ☆ #3  Crash when offline
            More below.

            """)
    }

    @Test("A search over two pages, a star, and a comment on an issue")
    func searchStarAndComment() throws {
        let run = try runExample(
            "issue-tracker", ["--search", "crash", "--pages", "2", "--star", "3", "--open", "1", "--comment", "Fixed in 2.4"])
        #expect(run.status == 0)
        #expect(run.output == """
            ☆ #1  Crash on launch
            ★ #3  Crash when offline
            ☆ #7  Crash on rotate

            #1  Crash on launch
              - Seen on 2.3 too.
              - Fixed in 2.4

            """)
    }

    @Test("An issue the list does not have gets a one-line error and a non-zero exit")
    func unknownIssue() throws {
        let run = try runExample("issue-tracker", ["--open", "9"])
        #expect(run.status != 0)
        #expect(run.error.contains("there is no issue #9"))
    }
}
