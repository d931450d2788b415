"""Core words of requests in other languages, as the English words tools use.

Tool names and descriptions are English; a request like "北京现在什么时间" or "Crea una
nueva página" would otherwise match nothing at all (Chinese, Japanese and Korean have no
spaces to split on, and accented words fall apart). This table maps the words of the
common asks (the time, a screenshot, a search, a route, a page, a file...) in Chinese,
Japanese, Korean, Spanish, Portuguese, French and German to English words, which are
added to the request. It is a floor, not translation: everything else in the request is
still unread.
"""

from __future__ import annotations

import re
from functools import lru_cache

_CONCEPTS: dict[str, str] = {
    # English words: the words or phrases of the other languages that mean them
    "current time": "时间, 几点, 時刻, 時間, 何時, 시간, 몇 시, hora, heure, uhrzeit",
    "now": "现在, 現在, 今, 지금, ahora, agora, maintenant, jetzt",
    "timezone convert": (
        "时区, 時差, タイムゾーン, 시간대, 시차, zona horaria, fuseau horaire, zeitzone"
    ),
    "screenshot": (
        "截图, 截屏, 截个图, スクショ, スクリーンショット, 스크린샷, 캡처, "
        "captura de pantalla, captura de tela, capture d'écran, "
        "bildschirmfoto"
    ),
    "search": (
        "搜索, 搜一下, 查找, 查询, 查一下, 検索, 調べ, 探して, 검색, 찾아, "
        "busca, buscar, pesquisa, pesquisar, cherche, chercher, recherche, "
        "suche, suchen"
    ),
    "directions route": (
        "怎么走, 路线, 导航, 坐地铁, 行き方, 経路, ルート, 경로, 길찾기, "
        "가는 방법, cómo llegar, ruta, como chegar, itinéraire, route, "
        "wegbeschreibung"
    ),
    "restaurants place local": (
        "好吃, 餐厅, 美食, 饭店, レストラン, グルメ, 맛집, 식당, "
        "restaurante, restaurantes, restaurants, restaurant"
    ),
    "navigate open": (
        "打开, 访问, 開いて, アクセス, 열어, 접속, abre, abrir, ouvre, ouvrir, öffne, öffnen"
    ),
    "page": "页面, 网页, ページ, 페이지, página, pagina, seite",
    "create": (
        "创建, 新建, 作成, 作って, 생성, 만들어, crea, crear, cria, criar, crée, créer, erstelle"
    ),
    "database": (
        "数据库, データベース, 데이터베이스, base de datos, banco de dados, "
        "base de données, datenbank"
    ),
    "repository": "仓库, リポジトリ, 저장소, 레포, repositorio, repositório, dépôt",
    "file": "文件, ファイル, 파일, archivo, arquivo, fichier, datei",
    "weather web": "天气, 天気, 날씨, clima, tiempo, météo, wetter",
    "news web": "新闻, ニュース, 뉴스, noticias, notícias, actualités, nachrichten",
    "remember memory": (
        "记住, 覚えて, 기억, 저번에, 지난번, 上次, 前回, recuerda, lembre, souviens, merke"
    ),
    "summarize": "总结, 摘要, 要約, まとめ, 요약, resumen, résume, zusammenfassung",
    "message": "消息, メッセージ, 메시지, mensaje, mensagem",
    "update": (
        "更新, 修改, アップデート, 업데이트, actualiza, atualiza, mets à jour, aktualisiere"
    ),
    "delete": "删除, 削除, 삭제, borra, elimina, apaga, supprime, lösche",
    "list": "列出, 一覧, 목록, lista, liste",
    "structure schema": "结构, 構造, 구조, estructura, estrutura",
    "issue": "イシュー, エシュー, 이슈, incidencia",
    "pull request": "プルリク, プルリクエスト, 풀 리퀘스트, 拉取请求",
    "click": "点击, クリック, 클릭, haz clic, clique, klicke",
}


_ENGLISH: dict[str, str] = {
    word.strip().lower(): english
    for english, words in _CONCEPTS.items()
    for word in words.split(",")
    if word.strip()
}


_LATIN = {word: english for word, english in _ENGLISH.items() if word[:1].isascii()}
_LONGEST = max((len(w.split()) for w in _LATIN), default=1)
_TOKEN = re.compile(r"[\w'\u2019]+")


@lru_cache(maxsize=1)
def _other_scripts() -> re.Pattern[str]:
    """One alternation of the words in scripts without spaces, longest first."""
    words = sorted((w for w in _ENGLISH if not w[:1].isascii()), key=len, reverse=True)
    return re.compile("|".join(re.escape(w) for w in words))


def english_cues(text: str) -> str:
    """The English words for the other-language words in ``text`` ("" when none)."""
    found: list[str] = []
    # Latin-script words and phrases, whole: "crea", "cómo llegar" (not "cómo" alone)
    tokens = _TOKEN.findall(text.lower())
    i = 0
    while i < len(tokens):
        for size in range(min(_LONGEST, len(tokens) - i), 0, -1):
            english = _LATIN.get(" ".join(tokens[i : i + size]))
            if english is not None:
                if english not in found:
                    found.append(english)
                i += size
                break
        else:
            i += 1
    if not text.isascii():
        for match in _other_scripts().finditer(text):
            english = _ENGLISH[match.group(0)]
            if english not in found:
                found.append(english)
    return " ".join(found)
