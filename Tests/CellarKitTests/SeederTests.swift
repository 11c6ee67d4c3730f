import CellarKit
import TestSupport
import Testing

@Suite struct SeederTests {
    private func seededProject() throws -> (MigrationProject, Database) {
        let project = try MigrationProject(["1_wineries.sql": wineries])
        let database = try project.open()
        try project.migrator(database).migrate()
        return (project, database)
    }

    @Test func seedsRunOnceInFileNameOrderAndAreRecorded() throws {
        let (project, database) = try seededProject()
        try project.folder.write("seeds/0002_more.sql", "INSERT INTO wineries VALUES (2, 'second');")
        try project.folder.write("seeds/0001_first.sql", "INSERT INTO wineries VALUES (1, 'first');")
        try project.folder.write("seeds/notes.txt", "ignored")
        let seeds = try Seed.all(in: project.folder.file("seeds"))
        #expect(seeds.map(\.name) == ["0001_first.sql", "0002_more.sql"])
        let seeder = Seeder(database: database)
        #expect(try seeder.run(seeds).map(\.wasSkipped) == [false, false])
        #expect(try seeder.run(seeds).map(\.wasSkipped) == [true, true])
        #expect(try database.scalar("SELECT count(*) FROM wineries") == .integer(2))
        let recorded = try database.query("SELECT name, checksum FROM cellar_seeds ORDER BY name")
        #expect(recorded.map { $0[0] } == [.text("0001_first.sql"), .text("0002_more.sql")])
        #expect(recorded[0][1] == .text(SHA256.hexDigest(of: Array("INSERT INTO wineries VALUES (1, 'first');".utf8))))
    }

    /// SPEC: a seed's checksum is that of the whole file with CRLF as LF — its final newline included.
    @Test func seedChecksumCoversTheWholeFileWithCRLFAsLF() throws {
        let (project, _) = try seededProject()
        try project.folder.write("seeds/0001_crlf.sql", "INSERT INTO wineries VALUES (1, 'a');\r\n\r\n")
        let seed = try #require(try Seed.all(in: project.folder.file("seeds")).first)
        #expect(seed.checksum == SHA256.hexDigest(of: Array("INSERT INTO wineries VALUES (1, 'a');\n\n".utf8)))
    }

    @Test func forceRunsAgainAndAChangedSeedIsReportedNotRerun() throws {
        let (project, database) = try seededProject()
        let path = try project.folder.write("seeds/0001_a.sql", "INSERT INTO wineries (name) VALUES ('x');")
        let seeder = Seeder(database: database)
        try seeder.run([try Seed.file(path, seedsFolder: project.folder.file("seeds"))])
        try project.folder.write("seeds/0001_a.sql", "INSERT INTO wineries (name) VALUES ('y');")
        let changed = try Seed.all(in: project.folder.file("seeds"))
        #expect(try seeder.status(of: changed).map(\.state) == [.changed])
        #expect(try seeder.run(changed).first?.wasSkipped == true)
        #expect(try seeder.run(changed, force: true).first?.wasSkipped == false)
        #expect(try seeder.status(of: changed).map(\.state) == [.applied])
        #expect(try database.scalar("SELECT group_concat(name) FROM wineries") == .text("x,y"))
    }

    @Test func readfileLoadsABlobRelativeToTheWorkingDirectoryOrAnAbsolutePath() throws {
        let (project, database) = try seededProject()
        try database.execute("CREATE TABLE labels (image BLOB)")
        let image: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0, 1, 2, 255]
        let imagePath = try project.folder.write("seeds/labels/a.png", bytes: image)
        let seed = try Seed(
            name: "1_labels.sql", path: "1_labels.sql",
            contents: Array("INSERT INTO labels VALUES (readfile('\(imagePath)'));".utf8))
        try database.registerFileFunctions()
        try Seeder(database: database).run([seed])
        #expect(try database.scalar("SELECT image FROM labels") == .blob(image))
    }

    @Test func readfileInASeedIsRelativeToTheSeedsFolder() throws {
        let (project, database) = try seededProject()
        try database.execute("CREATE TABLE labels (image BLOB)")
        let image: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0, 1, 2, 255]
        try project.folder.write("seeds/labels/a.png", bytes: image)
        try project.folder.write("seeds/1_labels.sql", "INSERT INTO labels VALUES (readfile('labels/a.png'));")
        try database.registerFileFunctions()
        try Seeder(database: database).run(try Seed.all(in: project.folder.file("seeds")))
        #expect(try database.scalar("SELECT image FROM labels") == .blob(image))
        #expect(throws: SQLiteError.self) { try database.scalar("SELECT readfile('labels/a.png')") }
    }

    @Test func readfileOfAMissingFileIsAnErrorNamingTheResolvedPath() throws {
        let (project, database) = try seededProject()
        try database.execute("CREATE TABLE labels (image BLOB)")
        let path = try project.folder.write(
            "seeds/1_labels.sql", "INSERT INTO labels VALUES (readfile('labels/missing.png'));")
        let seed = try Seed.file(path, seedsFolder: project.folder.file("seeds"))
        try database.registerFileFunctions()
        #expect {
            try Seeder(database: database).run([seed])
        } throws: { error in
            let diagnostic = (error as? MigrationError)?.diagnostic
            return diagnostic?.message
                == "readfile: cannot read '\(project.folder.file("seeds/labels/missing.png"))': No such file or directory"
                && diagnostic?.location == SourceLocation(line: 1, column: 1)
        }
        #expect(try database.scalar("SELECT count(*) FROM labels") == .integer(0))
        #expect(try Seeder(database: database).status(of: [seed]).map(\.state) == [.pending])
    }

    @Test(arguments: ["seeds/./1_a.sql", "seeds//1_a.sql", "./seeds/1_a.sql", "seeds/sub/../1_a.sql"])
    func seedPathsAreNormalisedSoAnAppliedSeedIsNotRunAgain(spelling: String) throws {
        let (project, database) = try seededProject()
        try project.folder.write("seeds/1_a.sql", "INSERT INTO wineries (name) VALUES ('x');")
        try project.folder.write("seeds/sub/.keep", "")
        let seeder = Seeder(database: database)
        try seeder.run(try Seed.all(in: project.folder.file("seeds")))
        let respelled = try Seed.file(project.folder.file(spelling), seedsFolder: project.folder.file("seeds") + "/")
        #expect(respelled.name == "1_a.sql")
        #expect(try seeder.run([respelled]).map(\.wasSkipped) == [true])
        #expect(try database.scalar("SELECT count(*) FROM wineries") == .integer(1))
    }

    @Test func aSeedOutsideTheSeedsFolderIsRefused() throws {
        let (project, _) = try seededProject()
        let other = try project.folder.write("elsewhere/1_a.sql", "INSERT INTO wineries (name) VALUES ('x');")
        #expect {
            try Seed.file(other, seedsFolder: project.folder.file("seeds"))
        } throws: { error in
            guard case .seedOutsideFolder(let path, _) = error as? MigrationError else { return false }
            return path == other
        }
    }

    @Test func failingSeedRollsBackAndIsNotRecorded() throws {
        let (project, database) = try seededProject()
        let path = try project.folder.write(
            "seeds/1_bad.sql", "INSERT INTO wineries VALUES (1, 'a');\nINSERT INTO nowhere VALUES (1);\n")
        let seed = try Seed.file(path, seedsFolder: project.folder.file("seeds"))
        #expect {
            try Seeder(database: database).run([seed])
        } throws: { error in
            let diagnostic = (error as? MigrationError)?.diagnostic
            return diagnostic?.location == SourceLocation(line: 2, column: 1) && diagnostic?.message == "no such table: nowhere"
                && diagnostic?.notes == ["seed 1_bad.sql rolled back"]
        }
        #expect(try database.scalar("SELECT count(*) FROM wineries") == .integer(0))
        #expect(try Seeder(database: database).status(of: [seed]).map(\.state) == [.pending])
    }

    @Test func seedThatCommitsIsRefused() throws {
        let (project, database) = try seededProject()
        let path = try project.folder.write("seeds/1_commit.sql", "INSERT INTO wineries VALUES (1, 'a');\nCOMMIT;\n")
        #expect(throws: MigrationError.self) {
            try Seeder(database: database).run([try Seed.file(path, seedsFolder: project.folder.file("seeds"))])
        }
        #expect(try database.scalar("SELECT count(*) FROM wineries") == .integer(0))
    }

    @Test func missingSeedFolderAndEmptySeedAreErrors() throws {
        let project = try MigrationProject([:])
        #expect(throws: MigrationError.self) { try Seed.all(in: project.folder.file("seeds")) }
        #expect(throws: MigrationError.self) { try Seed(name: "a.sql", path: "a.sql", contents: Array("-- nothing\n".utf8)) }
    }
}
