import CellarKit
import TestSupport
import Testing

@Suite struct MigrationSourceTests {
    @Test func duplicateVersionsNameBothFiles() throws {
        let project = try MigrationProject(["0003_a.sql": "SELECT 1;", "3_b.sql": "SELECT 2;"])
        #expect {
            try MigrationSource.folder(project.migrationsPath).load()
        } throws: { error in
            guard case .duplicateVersion(let version, let paths) = error as? MigrationError else { return false }
            return version == 3
                && paths.sorted() == [project.migrationsPath + "/0003_a.sql", project.migrationsPath + "/3_b.sql"]
        }
    }

    @Test func badNameMissingFolderAndIgnoredFiles() throws {
        let project = try MigrationProject(["0001_ok.sql": "SELECT 1;", "README.md": "x", ".hidden.sql": "garbage"])
        #expect(try MigrationSource.folder(project.migrationsPath).load().map(\.name) == ["ok"])
        try project.folder.write("migrations/create tables.sql", "SELECT 1;")
        #expect {
            try MigrationSource.folder(project.migrationsPath).load()
        } throws: { error in
            guard case .badFileName(let path) = error as? MigrationError else { return false }
            return path.hasSuffix("/create tables.sql")
        }
        #expect {
            try MigrationSource.folder(project.folder.file("nope")).load()
        } throws: { error in
            (error as? MigrationError)?.description == "no folder '\(project.folder.file("nope"))'"
        }
    }
}
