"""The ranker on a small catalogue of real-looking tools."""

from __future__ import annotations

from hands.discovery.ranking.lexicon import split_words, stem
from hands.discovery.ranking.query import parse_query
from hands.discovery.ranking.ranking import SearchDoc, ToolIndex, doc_for, name_parts

SCHEMA = {
    "type": "object",
    "properties": {
        "owner": {"type": "string", "description": "Repository owner"},
        "repo": {"type": "string", "description": "Repository name"},
    },
}

CATALOGUE = [
    doc_for("mcp__github__create_pull_request", "Open new pull request", SCHEMA),
    doc_for("mcp__github__list_pull_requests", "List pull requests", SCHEMA),
    doc_for("mcp__github__merge_pull_request", "Merge pull request", SCHEMA),
    doc_for("mcp__github__create_issue", "Create a new issue", SCHEMA),
    doc_for("mcp__gitlab__create_merge_request", "Create a new merge request"),
    doc_for("mcp__time__get_current_time", "Get current time in a specific timezones"),
    doc_for("mcp__time__convert_time", "Convert time between timezones."),
    doc_for("mcp__playwright__browser_take_screenshot", "Take a screenshot of the current page."),
    doc_for("mcp__playwright__browser_navigate", "Navigate to a URL"),
    doc_for("mcp__puppeteer__puppeteer_click", "Click elements on the page"),
    doc_for("mcp__slack__slack_post_message", "Post a new message to a Slack channel"),
    doc_for("mcp__filesystem__list_directory", "List directory contents"),
    doc_for("mcp__filesystem__move_file", "Move or rename files and directories."),
    doc_for("mcp__memory__create_entities", "Create multiple new entities in the knowledge graph"),
    doc_for("Deploy", "Ship it", hint="release the app to production"),
]


def top(query: str, **kw: object) -> str:
    results = ToolIndex(CATALOGUE).search(query, 5, **kw)  # type: ignore[arg-type]
    return results[0].name if results else ""


def best(catalogue: list[SearchDoc], request: str) -> str:
    """The first result for ``request`` over ``catalogue``."""
    return ToolIndex(catalogue).search(request, 1)[0].name


def test_name_splitting() -> None:
    assert name_parts("mcp__github__create_pull_request") == (
        "github",
        ["create", "pull", "request"],
    )
    assert name_parts("browserTakeScreenshot") == ("", ["browser", "take", "screenshot"])
    assert split_words("describe-table") == ["describe", "table"]
    assert name_parts("NotebookEdit") == ("", ["notebook", "edit"])


def test_stemming() -> None:
    assert stem("requests") == stem("request") == "request"
    assert stem("directories") == "directory"
    assert stem("running") == "run"
    assert stem("timezones") == "timezone"


def test_intent_and_synonyms() -> None:
    parsed = parse_query("Open a PR please")
    assert "create" in parsed.actions
    assert parsed.terms["pull"] > 0 and parsed.terms["create"] < 1


def test_plain_requests_find_the_right_tool() -> None:
    assert top("open a pull request") == "mcp__github__create_pull_request"
    assert top("show me the open PRs") == "mcp__github__list_pull_requests"
    assert top("squash and merge PR 12") == "mcp__github__merge_pull_request"
    assert top("file a bug") == "mcp__github__create_issue"
    assert top("open a merge request in GitLab") == "mcp__gitlab__create_merge_request"
    assert top("what time is it in Tokyo") == "mcp__time__get_current_time"
    assert top("when it is 4 PM in New York what time is it in London") == (
        "mcp__time__convert_time"
    )
    assert top("take a screenshot of the page") == "mcp__playwright__browser_take_screenshot"
    assert top("go to example.com") == "mcp__playwright__browser_navigate"
    assert top("press the login button") == "mcp__puppeteer__puppeteer_click"
    assert top("tell the team on Slack that the build is green") == (
        "mcp__slack__slack_post_message"
    )
    assert top("what's in this folder") == "mcp__filesystem__list_directory"
    assert top("rename a.txt to b.txt") == "mcp__filesystem__move_file"
    assert top("remember that Bob likes tea") == "mcp__memory__create_entities"


def test_search_hint_counts() -> None:
    assert top("release to production") == "Deploy"


def test_required_terms_filter_names() -> None:
    index = ToolIndex(CATALOGUE)
    names = [r.name for r in index.search("make", 10, required=["pull"])]
    assert names and all("pull" in n for n in names)
    assert names[0] == "mcp__github__create_pull_request"
    assert index.search("zzzz") == []


def test_scores_are_positive_and_sorted() -> None:
    results = ToolIndex(CATALOGUE).scores("create something new")
    assert results and all(r.score > 0 for r in results)
    assert [r.score for r in results] == sorted((r.score for r in results), reverse=True)


def test_cues_in_the_shape_of_a_request() -> None:
    from hands.discovery.ranking.cues import rewrite_cues

    text, _ = rewrite_cues("What happened in #engineering? See https://x.io/a and src/ui/app.ts")
    assert "channel engineering" in text
    assert "url" in text.split()
    assert "https" not in text
    assert "file" in text.split()
    assert rewrite_cues("Find restaurants in New York")[1] == frozenset({"new", "york"})
    assert "channel" not in rewrite_cues("close issue #42")[0]


def test_a_proper_noun_is_not_a_verb() -> None:
    parsed = parse_query("restaurants in New York")
    assert "create" not in parsed.terms
    assert not parsed.actions


def test_plural_object_asks_for_a_listing() -> None:
    assert parse_query("show recent commits").actions == {"list", "search"}
    assert "read" in parse_query("show the commit abc123").actions


def test_slack_channel_cue() -> None:
    catalogue = [
        *CATALOGUE,
        doc_for("mcp__slack__slack_get_channel_history", "Get recent messages from a channel"),
        doc_for("mcp__git__git_log", "Shows the commit logs"),
    ]
    got = ToolIndex(catalogue).search("What happened in #engineering this week?", 1)
    assert got[0].name == "mcp__slack__slack_get_channel_history"


def test_navigate_to_a_place_asks_for_directions() -> None:
    catalogue = [
        doc_for("mcp__playwright__browser_navigate", "Navigate to a URL"),
        doc_for("mcp__google-maps__maps_directions", "Get directions between two points"),
        doc_for("mcp__google-maps__maps_search_places", "Search for places"),
    ]
    got = ToolIndex(catalogue).search("Navigate to the nearest pharmacy", 1)
    assert got[0].name.startswith("mcp__google-maps__")
    assert "navigate" not in parse_query("navigate to the nearest pharmacy").actions


def test_is_a_place_open_asks_for_hours() -> None:
    from hands.discovery.ranking.cues import rewrite_cues

    text, _ = rewrite_cues("Is Starbucks on Main St open?")
    assert "opening hours" in text
    assert "create" not in parse_query("Is Starbucks on Main St open?").actions


def test_owner_repo_and_branch_names_are_not_paths() -> None:
    from hands.discovery.ranking.cues import rewrite_cues

    assert "file" not in rewrite_cues("list issues in octo/hello")[0].split()
    assert "file" not in rewrite_cues("a PR for the feature/login branch")[0].split()
    assert "file" in rewrite_cues("read src/app.ts")[0].split()
    assert "file" in rewrite_cues("open ./docs/guide")[0].split()


def test_a_year_asks_for_the_web() -> None:
    assert "web" in parse_query("latest crypto vulnerabilities in 2024").terms


def test_plural_survives_phrase_rewrites() -> None:
    assert parse_query("show all open pull requests").actions == {"list", "search"}


def test_a_key_number_or_hash_asks_to_read_that_one_thing() -> None:
    catalogue = [
        doc_for("mcp__atlassian__jira_search", "Search Jira issues using JQL"),
        doc_for("mcp__atlassian__jira_get_issue", "Get details of a specific Jira issue"),
        doc_for("mcp__git__git_log", "Shows the commit logs"),
        doc_for("mcp__git__git_show", "Shows the contents of a commit"),
    ]
    index = ToolIndex(catalogue)
    got = index.search("What are the details for Jira ticket PROJ-123?", 1)
    assert got[0].name == "mcp__atlassian__jira_get_issue"
    assert parse_query("what are the details for this ticket?").actions != {"read"}
    assert parse_query("what are the details for PROJ-123?").actions == {"read"}
    assert parse_query("show details for commit abc123").actions == {"read"}
    assert parse_query("what did I miss in #general?").actions == {"read"}
    assert "jira" in parse_query("Add a comment to PROJ-123").terms
    assert "jira" not in parse_query("details of CVE-2023-39910").terms


def test_a_quoted_phrase_is_searched_for_inside_things() -> None:
    catalogue = [
        doc_for("mcp__github__search_repositories", "Search for GitHub repositories", SCHEMA),
        doc_for("mcp__github__search_code", "Search for code across GitHub repositories"),
        doc_for("mcp__filesystem__search_files", "Search for files and directories by name"),
    ]
    index = ToolIndex(catalogue)
    quoted = index.search('Search for "holistic assistant" across all my repositories', 1)
    assert quoted[0].name == "mcp__github__search_code"
    unquoted = index.search("Search for holistic assistant across all my repositories", 1)
    assert unquoted[0].name == "mcp__github__search_repositories"


def test_files_with_no_repository_in_sight_are_local() -> None:
    catalogue = [
        doc_for("mcp__github__get_file_contents", "Get the contents of a file", SCHEMA),
        doc_for("mcp__filesystem__read_text_file", "Read a text file", {"properties": {}}),
    ]
    index = ToolIndex(catalogue)
    assert parse_query("Read the contents of file.txt").local_files
    assert index.search("Read the contents of file.txt", 1)[0].name.endswith("read_text_file")
    assert not parse_query("Read the README.md from the octo/hello repo").local_files
    got = index.search("Read the README.md file from the octo/hello repository", 1)
    assert got[0].name == "mcp__github__get_file_contents"


def test_the_thing_a_question_asks_about_is_not_a_verb() -> None:
    assert parse_query("What comments are on the PR?").actions == {"read", "list", "search"}
    assert parse_query("comment on the PR").actions == {"send"}


def test_the_words_of_a_file_name_are_a_name() -> None:
    terms = parse_query("Create a new text file called notes.txt with this content").terms
    assert "note" in terms
    assert "insight" not in terms
    assert "insight" in parse_query("save my notes").terms


def test_a_word_after_a_determiner_or_auxiliary_is_not_the_verb() -> None:
    assert "create" not in parse_query("What are my open issues?").actions
    assert parse_query("open the settings file").actions == {"create", "read"}
    assert "create" not in parse_query("What changes were made in the last commit?").actions
    assert parse_query("the list of tables").actions == set()
    assert parse_query("list of tables").actions == {"list"}


def test_home_and_absolute_paths_are_files() -> None:
    from hands.discovery.ranking.cues import rewrite_cues

    for request in ("show ~/Documents/api-spec.yaml", "read /etc/hosts"):
        text, names = rewrite_cues(request)
        assert "file" in text.split()
        assert "documents" in names or "hosts" in names
    assert parse_query("Show me the contents of ~/Documents/api-spec.yaml").actions >= {"read"}


def test_figures_over_records_ask_for_a_query() -> None:
    assert "query" in parse_query("How many users are there?").terms
    assert "query" in parse_query("What's the average age of users?").terms


def test_phrases_match_before_punctuation() -> None:
    # "what time is it?" is the phrase "what time is it", question mark or not
    assert "current" in parse_query("What time is it?").terms
    assert "show" in parse_query("What changes were made in the last commit?").terms


def test_quoted_text_and_what_follows_a_colon_are_data() -> None:
    from hands.discovery.ranking.cues import payload_words

    assert payload_words('Create an issue titled "Fix the login page"') >= {
        "fix",
        "login",
        "page",
    }
    assert payload_words("Store a memory: I met the team today") >= {"met", "team", "today"}
    # a word also used outside the quotes is the user's own
    assert "issue" not in payload_words('Create an issue called "issue tracker"')
    assert payload_words("Open https://example.com/a:b") == frozenset()
    parsed = parse_query('Create an issue titled "Take a screenshot of the page"')
    assert parsed.terms["screenshot"] < 0.5 <= parsed.terms["issue"]
    assert parsed.actions == {"create"}
    assert top('Create an issue titled "Take a screenshot of the page"').endswith("create_issue")


def test_a_local_path_outweighs_everything_that_needs_a_repository() -> None:
    catalogue = [
        doc_for("mcp__github__get_file_contents", "Get the contents of a file", SCHEMA),
        doc_for("mcp__filesystem__read_text_file", "Read a text file", {"properties": {}}),
        doc_for("mcp__git__git_show", "Shows the contents of a commit", {"properties": {}}),
    ]
    index = ToolIndex(catalogue)
    parsed = parse_query("Show me the contents of ~/Documents/api-spec.yaml")
    assert parsed.local_path and parsed.local_files
    got = index.search("Show me the contents of ~/Documents/api-spec.yaml", 1)
    assert got[0].name == "mcp__filesystem__read_text_file"
    # a web path is not a local one; a URL is not a path
    assert not parse_query("Navigate to /checkout and take a screenshot").local_path
    assert not parse_query("open https://example.com/docs/intro").local_path
    assert parse_query("read /etc/hosts").local_path


def test_files_in_a_named_repository_go_to_the_repository_tools() -> None:
    catalogue = [
        doc_for("mcp__github__get_file_contents", "Get the contents of a file", SCHEMA),
        doc_for(
            "mcp__filesystem__read_multiple_files",
            "Read the contents of multiple files simultaneously",
            {"properties": {"paths": {"type": "array"}}},
        ),
    ]
    request = "Read the README.md file from octo/marketresearch-ai repository"
    assert parse_query(request).repository_files
    assert ToolIndex(catalogue).search(request, 1)[0].name == "mcp__github__get_file_contents"


def test_the_same_tool_on_two_servers_goes_to_the_larger_server() -> None:
    github = [
        doc_for(f"mcp__github__{name}", text, SCHEMA)
        for name, text in [
            ("fork_repository", "Fork a repository"),
            ("list_issues", "List issues"),
            ("get_me", "Get my user"),
        ]
    ]
    gitlab = [doc_for("mcp__gitlab__fork_repository", "Fork a repository")]
    index = ToolIndex([*gitlab, *github])
    assert index.search("fork the repository to my account", 1)[0].name == (
        "mcp__github__fork_repository"
    )
    assert index.search("fork the repository on GitLab", 1)[0].name == (
        "mcp__gitlab__fork_repository"
    )


def test_a_name_in_the_request_does_not_cover_a_tool_name() -> None:
    catalogue = [
        *CATALOGUE,
        doc_for("mcp__maps__search_places", "Search for places near a location"),
    ]
    index = ToolIndex(catalogue)
    assert "time" in parse_query("Where can I get coffee near Times Square?").names

    def time_score(request: str) -> float:
        scores = {r.name: r.score for r in index.scores(request)}
        return scores["mcp__time__get_current_time"]

    assert time_score("coffee near Times Square") < time_score("coffee near times square")
    got = index.search("Where can I get coffee near Times Square?", 1)
    assert got[0].name == "mcp__maps__search_places"


def test_bare_domains_and_street_addresses_are_cues() -> None:
    from hands.discovery.ranking.cues import rewrite_cues

    assert "url" in rewrite_cues("Extract all product titles from example.com")[0].split()
    assert "url" not in rewrite_cues("Read setup.py and notes.md")[0].split()
    assert "address" in rewrite_cues("Where is 1600 Amphitheatre Parkway, Mountain View?")[0]
    assert parse_query("Open http://localhost:3000/login in the browser").actions == {"navigate"}
    assert top("Open http://localhost:3000/login in the browser").endswith("browser_navigate")


def test_closing_an_issue_updates_it() -> None:
    assert "update" in parse_query("Close issue #42").actions
    assert "read" in parse_query("Summarize PR #15").actions


def test_a_server_named_as_such_lifts_its_tools() -> None:
    catalogue = [
        doc_for("mcp__memory__search_nodes", "Search for nodes in the knowledge graph"),
        doc_for("mcp__notes__search_notes", "Search the user's notes for a query"),
    ]
    index = ToolIndex(catalogue)
    request = "Using the memory MCP, search my notes about the launch"
    assert index.search(request, 1)[0].name == "mcp__memory__search_nodes"
    assert index.search("search my notes about the launch", 1)[0].name == (
        "mcp__notes__search_notes"
    )
    # a common word that is not said to be a server names nothing
    assert index.search("search my notes about memory", 1)[0].name == ("mcp__notes__search_notes")


def test_a_search_about_nothing_a_tool_holds_goes_to_the_web() -> None:
    catalogue = [
        doc_for("mcp__brave__brave_web_search", "Performs a web search using the Brave API"),
        doc_for("mcp__github__search_repositories", "Search for GitHub repositories", SCHEMA),
        doc_for("mcp__filesystem__search_files", "Search for files matching a pattern"),
    ]
    index = ToolIndex(catalogue)
    assert index.search("Search for Next.js 15 new features", 1)[0].name == (
        "mcp__brave__brave_web_search"
    )
    assert index.search("search for repositories about terraform", 1)[0].name == (
        "mcp__github__search_repositories"
    )
    # "Next.js" is a product, not a file
    assert not parse_query("Search for Next.js 15 new features").local_files
    assert parse_query("Search for app.js in the project").local_files


def test_a_project_key_names_jira() -> None:
    from hands.discovery.ranking.cues import rewrite_cues

    assert "jira" in rewrite_cues("What are all the open bugs in the WEBAPP project?")[0]
    assert "jira" in rewrite_cues("Create a bug in project WEBAPP")[0]
    assert "jira" not in rewrite_cues("Update the API project docs")[0]


def test_recall_questions_search_memory() -> None:
    for request in ("What do I remember about the project?", "what did I tell you?"):
        terms = parse_query(request).terms
        assert terms.get("search", 0) > 0 and terms.get("memory", 0) > 0


def test_a_name_word_glued_to_its_article_is_the_word() -> None:
    catalogue = [
        doc_for("mcp__notion__notion_create_apage", "Create a page in the workspace"),
        doc_for("mcp__notion__notion_create_adatabase", "Create a database"),
        doc_for("mcp__notes__create_note", "Create a note"),
    ]
    index = ToolIndex(catalogue)
    assert index.search("create a new page", 1)[0].name == "mcp__notion__notion_create_apage"
    assert index.search("make a database", 1)[0].name == "mcp__notion__notion_create_adatabase"


def test_the_server_name_in_front_of_a_tool_name_need_not_be_covered() -> None:
    catalogue = [
        doc_for("mcp__brave-search__brave_web_search", "Performs a web search"),
        doc_for("mcp__search__web_search_files", "Searches files shared on the web"),
        doc_for("mcp__git__git_show", "Shows the contents of a commit", {"properties": {}}),
        doc_for("mcp__github__get_commit", "Get details for a commit", SCHEMA),
    ]
    index = ToolIndex(catalogue)
    # "web search" covers all of brave_web_search once "brave" is known to be the server
    assert index.search("do a web search", 1)[0].name == "mcp__brave-search__brave_web_search"
    # a verb alone is not a name: "show" does not cover git_show
    scores = {r.name: r.score for r in index.scores("show me the commit details")}
    assert scores["mcp__github__get_commit"] > scores["mcp__git__git_show"]


def test_yes_no_questions_ask_to_look_something_up() -> None:
    assert parse_query("Has Vercel announced any new features this month?").actions
    assert parse_query("Did the deploy finish?").actions <= {"read", "list", "search"}


def test_a_space_key_names_confluence() -> None:
    from hands.discovery.ranking.cues import rewrite_cues

    assert "confluence" in rewrite_cues('Create a page called "Notes" in space CDEMO')[0]


def test_a_web_search_tool_is_known_by_its_first_sentence() -> None:
    catalogue = [
        doc_for("mcp__brave-search__brave_web_search", "Execute web searches with paging"),
        doc_for(
            "mcp__brave-search__brave_local_search",
            "Search for local businesses and services. Falls back to web search if none.",
        ),
    ]
    got = ToolIndex(catalogue).search("Search for Next.js 15 new features", 1)
    assert got[0].name == "mcp__brave-search__brave_web_search"


def test_a_verb_used_as_an_adjective_is_only_itself() -> None:
    terms = parse_query("What are all the open bugs in the WEBAPP project?").terms
    assert "open" in terms and "create" not in terms
    assert "create" in parse_query("open a bug").terms


def test_a_second_step_counts_for_less_than_the_first() -> None:
    parsed = parse_query("Navigate to example.com and take a screenshot")
    assert parsed.terms["screenshot"] < parsed.terms["url"]
    assert top("Navigate to example.com and take a screenshot") == (
        "mcp__playwright__browser_navigate"
    )
    assert top("take a screenshot") == "mcp__playwright__browser_take_screenshot"
    # "and" between two nouns is not a second step
    assert parse_query("list issues and pull requests").terms["pull"] == 1.0


def test_everyday_words_that_point_at_a_kind_of_tool() -> None:
    # records of a business are rows in a database
    assert parse_query("Delete the customer whose ID is 3.").terms["query"] > 0
    # the weather is on the web; a weekday is a date, not a name
    assert parse_query("What is the weather in Tokyo?").terms["web"] > 0
    assert "sunday" not in parse_query("What would be last Sunday?").names
    assert parse_query("What would be last Sunday?").terms["time"] > 0
    # many pages belong to a wiki or a workspace
    assert parse_query("Search for pages about the project").terms["confluence"] > 0
    assert "confluence" not in parse_query("take a screenshot of the page").terms
    # "currently open": an adjective, not a verb
    assert "create" not in parse_query("What pull requests are currently open?").actions
    assert parse_query("List everything you remember about me").terms["search"] > 0


def test_a_hash_server_mention_names_the_server() -> None:
    catalogue = [
        doc_for("mcp__fetch__fetch", "Fetches a URL from the internet"),
        doc_for("mcp__github__get_latest_release", "Get the latest release", SCHEMA),
        doc_for("mcp__slack__slack_list_channels", "List channels in the workspace"),
    ]
    request = "What's the latest React version?"
    assert best(catalogue, request) == "mcp__github__get_latest_release"
    assert best(catalogue, f"#fetch {request}") == "mcp__fetch__fetch"


def test_steps_listed_with_commas_are_later_steps() -> None:
    parsed = parse_query("Go to example.com/login, fill the email field, and click login")
    assert parsed.terms["fill"] < 1.0 and parsed.terms["click"] < 1.0
    assert parse_query("fill the email field").terms["fill"] == 1.0


def test_a_time_of_day_is_converted_and_coordinates_are_named() -> None:
    assert top("what time is 3pm Eastern in Tokyo?") == "mcp__time__convert_time"
    assert top("what time is it in Tokyo?") == "mcp__time__get_current_time"
    catalogue = [
        doc_for("mcp__maps__maps_geocode", "Convert an address into geographic coordinates"),
        doc_for("mcp__maps__maps_reverse_geocode", "Convert coordinates into an address"),
    ]
    assert best(catalogue, "What's the address at 37.7749, -122.4194?") == (
        "mcp__maps__maps_reverse_geocode"
    )
    assert best(catalogue, "What are the coordinates for 1 Infinite Loop, Cupertino?") == (
        "mcp__maps__maps_geocode"
    )


def test_a_name_of_only_a_verb_and_a_stop_word_keeps_both() -> None:
    catalogue = [
        doc_for("mcp__github__get_me", "Get details of the authenticated user"),
        doc_for("mcp__brave__brave_web_search", "Performs a web search"),
    ]
    assert best(catalogue, "Look up Cloudflare Workers documentation") == (
        "mcp__brave__brave_web_search"
    )
    assert best(catalogue, "get me my profile") == "mcp__github__get_me"


def test_more_words_that_point_at_a_kind_of_tool() -> None:
    assert parse_query("Make a GET request to https://example.com/api").terms["fetch"] > 0
    assert parse_query("Recall what we discussed about the schema").terms["memory"] > 0
    assert parse_query("Search across the Engineering spaces").terms["confluence"] > 0
    assert parse_query("what's the state of my repository?").terms["status"] > 0


def test_statement_kinds_in_capitals_are_what_a_tool_does() -> None:
    catalogue = [
        doc_for("mcp__sqlite__write_query", "Execute INSERT, UPDATE, or DELETE queries"),
        doc_for("mcp__sqlite__read_query", "Execute SELECT queries to read data"),
        doc_for("mcp__notes__delete_note", "Delete a note"),
    ]
    assert best(catalogue, "Delete the customer whose ID is 3.") == "mcp__sqlite__write_query"
    assert best(catalogue, "delete the note about groceries") == "mcp__notes__delete_note"


def test_an_email_address_is_not_a_web_address() -> None:
    from hands.discovery.ranking.cues import rewrite_cues

    assert "url" not in rewrite_cues("Change Ada's email to ada@example.com.")[0].split()
    assert "url" in rewrite_cues("Open example.com.")[0].split()


def test_example_values_in_parameter_descriptions_do_not_count() -> None:
    time_schema = {
        "properties": {
            "timezone": {
                "type": "string",
                "description": "IANA timezone name (e.g., 'Asia/Tokyo', 'Europe/London').",
            }
        }
    }
    catalogue = [
        doc_for("mcp__time__get_current_time", "Get the current time", time_schema),
        doc_for("mcp__maps__maps_search_places", "Search for places using Google Places"),
    ]
    assert best(catalogue, "What are the top attractions in Tokyo?") == (
        "mcp__maps__maps_search_places"
    )
    assert best(catalogue, "what time is it in Tokyo?") == "mcp__time__get_current_time"


def test_phrases_for_dates_branches_and_pages() -> None:
    assert parse_query("Add 5 days to today").terms["current"] > 0
    assert parse_query("What's the time difference between Paris and Rome?").terms["convert"] > 0
    assert "git" in parse_query("Show the last 10 commits on the current branch").platforms
    assert parse_query("Get the HTML content of the page").terms["evaluate"] > 0
