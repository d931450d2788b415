"""Ranking signals read from the catalogue: server topics, page openers, missing ids."""

from __future__ import annotations

from hands.discovery.ranking.cues import gives_identifier, payload_words, rewrite_cues
from hands.discovery.ranking.query import parse_query
from hands.discovery.ranking.ranking import ToolIndex, doc_for
from hands.discovery.ranking.server_topic import ServerTopics


def schema(*required: str, optional: tuple[str, ...] = ()) -> dict[str, object]:
    names = (*required, *optional)
    return {
        "type": "object",
        "properties": {n: {"type": "string", "description": n} for n in names},
        "required": list(required),
    }


def first(index: ToolIndex, request: str) -> str:
    results = index.search(request, 5)
    return results[0].name if results else ""


def test_server_topics_rank_servers_by_their_tools_together() -> None:
    topics = ServerTopics(
        {
            "maps": ["geocode", "address", "place", "direction", "place", "route"],
            "db": ["query", "table", "sql", "row"],
            "tool:Read": ["read", "file"],
        }
    )
    got = topics.relative({"place": 1.0, "route": 0.5})
    assert got == {"maps": 1.0}
    got = topics.relative({"place": 1.0, "table": 1.0})
    assert got["maps"] == 1.0 or got["db"] == 1.0
    assert 0.0 < min(got.values()) <= 1.0
    assert topics.relative({"unknown": 1.0}) == {}


def test_a_request_about_a_servers_subject_lifts_that_servers_tools() -> None:
    # "conversations stored" names no tool, but the database server is where records are
    catalogue = [
        doc_for("mcp__db__read_query", "Execute a SELECT query on the SQLite database"),
        doc_for("mcp__db__list_tables", "List all tables in the SQLite database"),
        doc_for("mcp__db__describe_table", "Get the schema of a table in the database"),
        doc_for("mcp__chat__get_history", "Get recent conversations and messages"),
        doc_for("mcp__chat__post_message", "Post a message"),
    ]
    index = ToolIndex(catalogue)
    scores = {r.name: r.score for r in index.scores("How many rows are stored in the database?")}
    assert scores["mcp__db__read_query"] > scores.get("mcp__chat__get_history", 0.0)
    # the lift is the server's: every tool of the best server gains, others do not
    import hands.discovery.ranking.ranking as ranking

    saved = ranking.SERVER_TOPIC
    try:
        ranking.SERVER_TOPIC = 0.0
        plain = {r.name: r.score for r in ToolIndex(catalogue).scores("database tables")}
    finally:
        ranking.SERVER_TOPIC = saved
    lifted = {r.name: r.score for r in ToolIndex(catalogue).scores("database tables")}
    assert lifted["mcp__db__list_tables"] == plain["mcp__db__list_tables"] + 1.0


PAGE_TOOLS = [
    doc_for("mcp__browser__navigate", "Navigate to a URL", schema("url")),
    doc_for("mcp__browser__take_screenshot", "Take a screenshot of the current page"),
    doc_for("mcp__browser__click", "Click an element on the page", schema("selector")),
    doc_for("mcp__web__fetch", "Fetch a URL and return its content", schema("url")),
]


def test_a_page_action_on_an_address_opens_the_address_first() -> None:
    index = ToolIndex(PAGE_TOOLS)
    assert parse_query("Take a full-page screenshot of https://example.com").web_address
    assert first(index, "Take a full-page screenshot of https://example.com") == (
        "mcp__browser__navigate"
    )
    names = [r.name for r in index.search("Take a screenshot of https://example.com", 5)]
    assert names.index("mcp__browser__navigate") + 1 == names.index("mcp__browser__take_screenshot")
    # no address: the page is open already
    assert first(index, "Take a screenshot of the page") == "mcp__browser__take_screenshot"
    # a required term still filters: the opener is not added past it
    names = [r.name for r in index.search("screenshot https://a.com", 5, required=["shot"])]
    assert names == ["mcp__browser__take_screenshot"]


def test_a_tool_needing_an_id_the_request_lacks_waits_for_a_search() -> None:
    import hands.discovery.ranking.ranking as ranking

    catalogue = [
        doc_for("mcp__wiki__get_page", "Get a page by its ID", schema("page_id")),
        doc_for("mcp__wiki__search_pages", "Search pages by title", schema("query")),
    ]

    def get_page_score(request: str, penalty: float) -> float:
        saved = ranking.MISSING_IDENTIFIER
        try:
            ranking.MISSING_IDENTIFIER = penalty
            scores = {r.name: r.score for r in ToolIndex(catalogue).scores(request)}
        finally:
            ranking.MISSING_IDENTIFIER = saved
        return scores["mcp__wiki__get_page"]

    titled = "Get the Q2 planning page"
    assert get_page_score(titled, -1.0) == get_page_score(titled, 0.0) - 1.0
    with_id = "Get page 1a6b35e6e67f802fa7e1d27686f017f2"
    assert get_page_score(with_id, -1.0) == get_page_score(with_id, 0.0)
    # a tool with no required id is never lowered
    assert not ToolIndex(catalogue[1:])._entries[0].needs_identifier  # pyright: ignore[reportPrivateUsage]
    assert gives_identifier("Show PR #17") and gives_identifier("PROJ-123")
    assert gives_identifier("see https://example.com") and gives_identifier("#general")
    assert gives_identifier("commit abc123f") and gives_identifier("issue 5")
    assert not gives_identifier("Show the latest pull request")
    assert not gives_identifier("the Q2 planning page, news from 2025, the 3pm meeting")


def test_platforms_and_shapes_inside_the_data_name_nothing() -> None:
    catalogue = [
        doc_for("mcp__memory__create_entities", "Create entities in the knowledge graph memory"),
        doc_for("mcp__github__issue_write", "Create or update an issue", schema("owner")),
        doc_for("mcp__atlassian__jira_create_issue", "Create a Jira issue"),
    ]
    index = ToolIndex(catalogue)
    stored = "Store in memory: project uses Node.js, Python and the GitHub CLI"
    assert "github" in payload_words(stored)  # as one word, the way requests are split
    assert not parse_query(stored).platforms
    assert first(index, stored) == "mcp__memory__create_entities"
    fact = "Remember that AC-2 failed its audit after 90 days"
    assert "jira" not in rewrite_cues(fact, payload_words(fact))[0]
    assert "jira" in rewrite_cues("Show AC-2")[0]
    assert first(index, fact) == "mcp__memory__create_entities"


def test_a_verbs_plural_is_a_noun() -> None:
    parsed = parse_query("Show me all my changes in this repository")
    assert parsed.terms.get("diff", 0.0) > 0.5
    assert "update" not in parsed.actions
    # news is not "new": nothing is created
    parsed = parse_query("What's the latest news on AI chips?")
    assert "create" not in parsed.actions and "new" not in parsed.terms


def test_places_asked_for_by_name_and_routes_between_them() -> None:
    catalogue = [
        doc_for("mcp__maps__geocode", "Convert an address into geographic coordinates"),
        doc_for("mcp__maps__search_places", "Search for places using a text query"),
        doc_for("mcp__maps__directions", "Get directions between two points"),
        doc_for("mcp__fs__search_files", "Search for files by name in a directory"),
    ]
    index = ToolIndex(catalogue)
    assert first(index, "Where is AUB?").startswith("mcp__maps__")
    assert first(index, "Quickest way from AUB to downtown Beirut") == "mcp__maps__directions"
    # a thing that is not named is not a place
    assert first(index, "Where's the config file?") == "mcp__fs__search_files"
    assert "directions" not in rewrite_cues("the fastest way to fix this bug")[0]


def test_requests_in_other_languages_get_the_tools_english_words() -> None:
    from hands.discovery.ranking.languages import english_cues

    assert english_cues("北京现在什么时间") == "now current time"
    assert english_cues("从天安门到鸟巢坐地铁怎么走") == "directions route"
    assert english_cues("googleでサッカーって調べてスクショして") == "search screenshot"
    assert english_cues('Crea una nueva página llamada "Prueba"') == "create page"
    # a phrase is one entry: "cómo" alone is not "cómo llegar"
    assert english_cues("cómo está implementado") == ""
    assert english_cues("¿Cómo llegar al museo?") == "directions route"
    # Latin-script words count whole only, and English requests get nothing
    assert english_cues("the listado and the crear_table helper") == ""
    assert english_cues("Take a screenshot of the page") == ""
    catalogue = [
        doc_for("mcp__time__get_current_time", "Get current time in a specific timezone"),
        doc_for("mcp__maps__directions", "Get directions between two points"),
        doc_for("mcp__web__search", "Search the web"),
    ]
    index = ToolIndex(catalogue)
    assert index.search("北京现在什么时间", 1)[0].name == "mcp__time__get_current_time"
    assert index.search("从天安门到鸟巢坐地铁怎么走", 1)[0].name == "mcp__maps__directions"


def test_a_site_named_by_its_page_is_an_address_to_open() -> None:
    index = ToolIndex(PAGE_TOOLS)
    assert parse_query("take a screenshot of the GitHub homepage").web_address
    assert first(index, "take a screenshot of the GitHub homepage") == "mcp__browser__navigate"
    assert not parse_query("take a screenshot").web_address


def test_a_statement_about_the_user_is_a_fact_to_keep() -> None:
    catalogue = [
        doc_for("mcp__memory__add_observations", "Add new observations to entities in memory"),
        doc_for("mcp__time__get_current_time", "Get current time in a specific timezone"),
        doc_for("mcp__git__git_status", "Shows the working tree status"),
    ]
    index = ToolIndex(catalogue)
    request = "Actually, I don't work at Acme Corporation anymore. I now work at TechStart."
    assert first(index, request) == "mcp__memory__add_observations"
    # a question about oneself, or a request with a verb, is not a statement
    assert "memory" not in parse_query("I want to check the time now").terms
    assert "memory" not in parse_query("My clock is wrong, what time is it?").terms


def test_summarizing_all_of_many_things_lists_them_first() -> None:
    assert parse_query("Summarize all open pull requests").actions >= {"list", "search"}
    assert parse_query("Summarize pull request 42").actions == {"read"}


def test_listing_and_searching_are_one_intent() -> None:
    # GitHub's server searches repositories but has no tool that lists them all
    catalogue = [
        doc_for("mcp__github__search_repositories", "Search for GitHub repositories"),
        doc_for("mcp__github__list_issues", "List issues in a GitHub repository"),
        doc_for("mcp__github__list_starred_repositories", "List starred repositories"),
    ]
    names = [r.name for r in ToolIndex(catalogue).search("List my repositories", 3)]
    # a search for the very object asked for beats a listing of another object
    assert names.index("mcp__github__search_repositories") < names.index("mcp__github__list_issues")


def test_a_path_opened_on_the_site_under_test_is_a_web_address() -> None:
    index = ToolIndex(PAGE_TOOLS)
    request = "Open /quiz and tell me whether the Start Quiz button is visible."
    assert parse_query(request).web_address
    assert parse_query(request).actions == {"navigate"}
    assert first(index, request) == "mcp__browser__navigate"
    # a path on this machine stays a path
    assert not parse_query("list files in /tmp").web_address
    assert parse_query("read /etc/hosts").local_path


def test_the_latest_of_many_is_found_by_a_listing() -> None:
    assert {"list", "search"} <= parse_query("Show the latest PR").actions
    # with its number, it is read
    assert parse_query("Show the latest comment on PR #42").actions == {"read"}


def test_what_we_did_together_is_remembered() -> None:
    catalogue = [
        doc_for("mcp__memory__search_nodes", "Search for nodes in the knowledge graph memory"),
        doc_for("mcp__git__git_log", "Shows the commit logs"),
    ]
    index = ToolIndex(catalogue)
    assert first(index, "What did we accomplish yesterday?") == "mcp__memory__search_nodes"


def test_a_thing_named_by_title_is_searched_for_before_it_is_changed() -> None:
    from hands.discovery.ranking.cues import names_by_title

    catalogue = [
        doc_for("mcp__notes__update_page", "Update a page's properties", schema("id")),
        doc_for("mcp__notes__search", "Search pages and databases by title"),
        doc_for("mcp__notes__search_users", "Search the workspace's users"),
    ]
    index = ToolIndex(catalogue)
    titled = 'Update the page "Daily Workflow" to Status: Done'
    assert names_by_title(titled) and names_by_title("the 'Onboarding Guide' page")
    assert first(index, titled) == "mcp__notes__search"
    # a quoted value is not a title, and an id needs no search
    assert not names_by_title("Move this ticket to 'In Progress'")
    assert first(index, "Update page 1a6b35e6e67f802f to Status: Done") == (
        "mcp__notes__update_page"
    )
    assert gives_identifier("Submit a review for PR #<PR_NUMBER>")
    assert not gives_identifier("the page 'Daily Workflow - [Today's Date]'")


def test_what_the_user_and_agent_did_before_is_asked_of_memory() -> None:
    from hands.discovery.ranking.cues import rewrite_cues

    for request in (
        "What database did we choose?",
        "What did I learn about React hooks last week?",
        "What recipes have I saved that use chicken?",
        "Have we solved this before?",
        "What were the key decisions from last session?",
    ):
        assert "memory" in rewrite_cues(request)[0].split(), request
    for request in ("Choose a database for the app", "I saved the file, now run the tests"):
        assert "memory" not in rewrite_cues(request)[0].split(), request


def test_a_question_no_tool_holds_goes_to_the_web_even_with_no_word_in_common() -> None:
    catalogue = [
        doc_for("mcp__brave__brave_web_search", "Performs a web search using the Brave API"),
        doc_for("mcp__sentry__list_events", "List events of a Sentry issue"),
        doc_for("mcp__github__list_issues", "List issues in a repository"),
    ]
    index = ToolIndex(catalogue)
    assert first(index, "What tech conferences are happening in Taipei?") == (
        "mcp__brave__brave_web_search"
    )
    # names with a number are not Jira keys
    from hands.discovery.ranking.cues import rewrite_cues

    assert "jira" not in rewrite_cues("benchmarks comparing Claude and GPT-4")[0]
    assert "jira" in rewrite_cues("what is blocking PROJ-4?")[0]


def test_changes_over_a_span_of_time_are_the_commit_log() -> None:
    from hands.discovery.ranking.cues import rewrite_cues

    assert "log" in rewrite_cues("What changed in the last 3 days?")[0].split()
    assert "log" in rewrite_cues("summary of all of the changes that went in yesterday")[0]
    assert "log" not in rewrite_cues("What changed in this file?")[0].split()


def test_a_link_to_one_object_on_a_forge_is_that_object() -> None:
    from hands.discovery.ranking.cues import rewrite_cues

    text = rewrite_cues("Review https://github.com/facebook/react/pull/12345")[0]
    assert "github" in text and "pull request" in text and "12345" in text
    assert "merge request" in rewrite_cues("see https://gitlab.com/a/b/-/merge_requests/7")[0]
    # a repository's own page is only an address
    assert "pull" not in rewrite_cues("open https://github.com/facebook/react")[0]
    catalogue = [
        doc_for("mcp__github__pull_request_read", "Get a pull request", schema("pullNumber")),
        doc_for("mcp__fetch__fetch", "Fetches a URL from the internet", schema("url")),
    ]
    index = ToolIndex(catalogue)
    request = "Review https://github.com/facebook/react/pull/12345"
    assert first(index, request) == "mcp__github__pull_request_read"


def test_work_made_from_recent_commits_reads_the_log_first() -> None:
    from hands.discovery.ranking.cues import rewrite_cues

    assert "log" in rewrite_cues("Create a changelog from recent commits")[0].split()
    assert "log" in rewrite_cues("Draft release notes based on the latest commits")[0].split()
    assert "log" not in rewrite_cues("Create a commit")[0].split()
    assert "directory" in rewrite_cues("give me an overview of this codebase")[0].split()


def test_more_ways_of_asking_what_happened_before() -> None:
    from hands.discovery.ranking.cues import rewrite_cues

    for request in ("How did we handle auth last time?", "Remember when we set up CI?"):
        assert "memory" in rewrite_cues(request)[0].split(), request
    assert "memory" in parse_query("저번에 CORS 에러 어떻게 해결했지?").terms


def test_navigating_to_a_folder_lists_it() -> None:
    catalogue = [
        doc_for("mcp__fs__list_directory", "List the files in a directory"),
        doc_for("mcp__browser__navigate", "Navigate to a URL", schema("url")),
    ]
    index = ToolIndex(catalogue)
    assert first(index, "Navigate to my Documents folder") == "mcp__fs__list_directory"
    assert first(index, "Navigate to https://example.com/folder") == "mcp__browser__navigate"


def test_only_an_ids_parameter_makes_a_tool_need_an_id() -> None:
    needs = {
        name: ToolIndex([doc_for("mcp__s__t", "A tool", schema(name))])._entries[0].needs_identifier  # pyright: ignore[reportPrivateUsage]
        for name in ("id", "page_id", "issue_number", "pullNumber", "ghsaId", "sha", "grid", "paid")
    }
    assert needs == {
        "id": True,
        "page_id": True,
        "issue_number": True,
        "pullNumber": True,
        "ghsaId": True,
        "sha": True,
        "grid": False,
        "paid": False,
    }
