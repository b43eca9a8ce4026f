// The tests of the article "Dependencies" (Sources/Lockstep/Documentation.docc/Dependencies.md),
// on the app code of Dependencies.swift, with only the imports a test file has.
import LockstepQuery
import LockstepTesting
import Testing

@MainActor
@Suite("Dependencies")
struct DependenciesTests {
    @Test func searchUsesTheCatalogTheTestGives() async {
        var services = AppServices.unimplemented
        services.catalog.search = { _ in ["Dune", "Dune Messiah"] }
        let client = OperationClient()
        let store = makeShelfStore(services: services, client: client)

        await store.dispatch(.search("dune"))

        #expect(store.results == ["Dune", "Dune Messiah"])
    }

    @Test func aQueryReadsTheSameCatalog() async throws {
        let services = AppServices(catalog: .inMemory(["Dune": "Spice and sand."]))
        let client = OperationClient()
        let store = makeShelfStore(services: services, client: client)

        await store.dispatch(.summaryTapped("Dune"))

        #expect(store.summary == "Spice and sand.")
    }

    @Test func anEndpointTheTestDidNotSetFailsTheTest() async {
        let client = OperationClient()
let store = makeShelfStore(services: .unimplemented, client: client)

        await withKnownIssue {
            await store.dispatch(.search("dune"))
        }
        #expect(store.results == [])
    }
}
