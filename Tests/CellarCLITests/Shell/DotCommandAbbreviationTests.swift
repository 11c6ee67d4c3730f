import Testing

@testable import CellarCLI

/// Dot-command abbreviations as sqlite3 3.40.1 takes them: its `do_meta_command` tries each command
/// in turn, each matching a prefix of some least length, and the first match wins (`.ex` is `.exit`,
/// `.pro` is `.progress`). cellar takes the same prefixes for the commands it shares, refuses those
/// sqlite3 refuses or gives to a command cellar lacks, and shortens its own commands to any prefix
/// that names one command.
@Suite struct DotCommandAbbreviationTests {
    /// Every prefix of every dot-command name cellar shares with sqlite3, and the command sqlite3
    /// 3.40.1 (`/usr/bin/sqlite3`) runs for it (empty: "unknown command"). Recorded by running
    /// `.PREFIX` with no argument, `1` and `x` in sqlite3 on a database with a table and an index and
    /// comparing what it wrote, and which files it made, with the full names' runs;
    /// `SQLite3DotCommandAbbreviationSlowTests` checks the table against the binary again.
    static let sqlite3Takes = """
        a=auth ar=archive arc=archive arch=archive archi=archive archiv=archive archive=archive
        b= ba= bac=backup back=backup backu=backup backup=backup bai=bail bail=bail
        c=clone ch= cha=changes chan=changes chang=changes change=changes changes=changes
        d=dump da=databases dat=databases data=databases datab=databases databa=databases databas=databases \
        database=databases databases=databases db= dbi=dbinfo dbin=dbinfo dbinf=dbinfo dbinfo=dbinfo du=dump \
        dum=dump dump=dump
        e=echo ec=echo ech=echo echo=echo eq=eqp eqp=eqp ex=exit exi=exit exit=exit exp=explain expl=explain \
        expla=explain explai=explain explain=explain
        f=filectrl fu=fullschema ful=fullschema full=fullschema fulls=fullschema fullsc=fullschema \
        fullsch=fullschema fullsche=fullschema fullschem=fullschema fullschema=fullschema
        h=headers he=headers hea=headers head=headers heade=headers header=headers headers=headers hel=help \
        help=help
        i=import im=import imp=import impo=import impor=import import=import in=indexes ind=indexes \
        inde=indexes index=indexes indexe=indexes indexes=indexes indi=indexes indic=indexes indice=indexes \
        indices=indexes
        l=load li= lin=lint lint=lint lo=load loa=load load=load log=log
        m=mode mo=mode mod=mode mode=mode
        n=nullvalue nu=nullvalue nul=nullvalue null=nullvalue nullv=nullvalue nullva=nullvalue \
        nullval=nullvalue nullvalu=nullvalue nullvalue=nullvalue
        o=once on=once onc=once once=once op=open ope=open open=open ou=output out=output outp=output \
        outpu=output output=output
        p=prompt pa= par=parameter para=parameter param=parameter parame=parameter paramet=parameter \
        paramete=parameter parameter=parameter pr=prompt pri=print prin=print print=print pro=progress \
        prom=prompt promp=prompt prompt=prompt
        q=quit qu=quit qui=quit quit=quit
        r=recover re=recover rea=read read=read res=restore rest=restore resto=restore restor=restore \
        restore=restore
        s=scanstats sa= sav=save save=save sc=scanstats sch=schema sche=schema schem=schema schema=schema \
        se=separator sep=separator sepa=separator separ=separator separa=separator separat=separator \
        separato=separator separator=separator sh=shell she=shell shel=shell shell=shell sho=show show=show \
        st=stats sta=stats stat=stats stats=stats sy=system sys=system syst=system syste=system system=system
        t=trace ta=tables tab=tables tabl=tables table=tables tables=tables ti= tim= time= timeo=timeout \
        timeou=timeout timeout=timeout timer=timer tr=trace tra=trace trac=trace trace=trace
        w=width wi=width wid=width widt=width width=width
        """

    /// The table as (prefix, command sqlite3 runs or "").
    static let cases: [(prefix: String, sqlite3: String)] = sqlite3Takes.split(whereSeparator: \.isWhitespace).map {
        let pair = $0.split(separator: "=", omittingEmptySubsequences: false)
        return (String(pair[0]), String(pair[1]))
    }

    @Test(arguments: cases)
    func aPrefixRunsWhatSQLite3Runs(prefix: String, sqlite3: String) {
        let resolved = DotCommandCatalog.resolve(prefix)
        if DotCommandCatalog.entry(sqlite3) != nil {
            #expect(resolved == .command(sqlite3), "'.\(prefix)'")
        } else {
            guard case .command(let other) = resolved else { return }
            Issue.record("'.\(prefix)' runs .\(other); sqlite3 runs \(sqlite3.isEmpty ? "nothing" : "." + sqlite3)")
        }
    }

    /// Every row sqlite3 also has is in the table with every prefix of its name, and every other row
    /// is cellar's own: a new shared command gets sqlite3's rule, not cellar's.
    @Test func theTableCoversEverySharedRow() {
        let prefixes = Set(Self.cases.map(\.prefix))
        let shared = Set(Self.cases.map(\.sqlite3))
        for row in DotCommandCatalog.entries {
            let isShared = shared.contains(row.name)
            #expect(isShared == (row.abbreviation != .unique), ".\(row.name)")
            guard isShared else { continue }
            for spelling in [row.name] + row.aliases {
                for length in 1...spelling.count { #expect(prefixes.contains(String(spelling.prefix(length)))) }
            }
        }
    }

    /// No string is a prefix that two shared rows both take (the chain's order is in the rows'
    /// shortest lengths and exceptions).
    @Test func noPrefixNamesTwoSharedRows() {
        let rows = DotCommandCatalog.entries.filter { $0.abbreviation != .unique }
        for row in rows {
            for length in 1...row.name.count {
                let prefix = String(row.name.prefix(length))
                let takers = rows.filter { $0.takes(prefix) }.map(\.name)
                #expect(takers.count <= 1, "'.\(prefix)': \(takers)")
            }
        }
    }

    /// cellar's own commands: any prefix that names one command, and a did-you-mean error for a
    /// prefix of several; a shared command's abbreviation wins over them (`.m` is `.mode`).
    @Test(arguments: [
        ("ma", DotCommandCatalog.Resolution.command("maxrows")), ("pag", .command("pager")),
        ("bl", .command("blob")), ("di", .command("diff")), ("ed", .command("edit")),
        ("mi", .ambiguous(["migration", "migrations"])), ("migration", .command("migration")),
        ("pa", .ambiguous(["pager", "parameter"])), ("m", .command("mode")), ("e", .command("echo")),
        ("d", .command("dump")), ("zz", .unknown),
    ])
    func cellarsOwnCommandsKeepTheirUniquePrefixes(prefix: String, expected: DotCommandCatalog.Resolution) {
        #expect(DotCommandCatalog.resolve(prefix) == expected)
    }

    @Test func aPrefixSQLite3RefusesSaysWhatToType() {
        let run = InProcessRun(["shell", ":memory:"], input: ".ch on\n.pro 1\n")
        #expect(run.error.contains("'.ch' is too short for '.changes': sqlite3 takes '.cha'"), "\(run.error)")
        #expect(
            run.error.contains("sqlite3 takes '.pro' as '.progress', which cellar does not have ('.prom' is '.prompt'"),
            "\(run.error)")
        #expect(run.status == 1)
    }
}
