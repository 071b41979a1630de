#!/usr/bin/env python3
"""Generate synthetic multi-page web sites with exactly known template/content.

Every site gets one shared page template, drawn from several genuinely
different styles (table layout, WordPress-like divs, HTML5 semantic markup,
documentation portal), in one of several languages (English, German, Russian,
Chinese, French, Spanish), so menus, page ids and URLs exercise Unicode. Each
page wraps unique generated prose (title, paragraphs, maybe a list, a table,
code, comments) in the template; optional template blocks appear on only
some pages (a "related" box on ~30% of pages, a promo on exactly 2 pages).

All text is produced here (procedural words), nothing is copied from the web.
Output is deterministic for a given --seed (byte-identical files).

Layout of --out DIR (same as the shared datasets, plus truth.jsonl):
  DIR/README.md                   parameters and what the files mean
  DIR/manifest.tsv                site page url gold (header, sorted)
  DIR/pages/<site>/<id>.html      the pages (UTF-8)
  DIR/gold/<site>/<id>.txt        article text, one block per line
  DIR/gold/<site>/<id>.comments.txt   user comments (pages that have them)
  DIR/truth.jsonl                 one JSON object per page (see README.md)

Exit codes: 0 ok, 1 I/O error, 2 usage error.
"""
import argparse
import base64
import gzip
import hashlib
import json
import os
import random
import shutil
import sys
import urllib.parse
import uuid
from datetime import date, datetime, timedelta, timezone

# ----------------------------------------------------------------- mini DOM
# Same tag classes as core/tags.h: BREAK elements separate text (a space in
# the normalized text), DROP elements contribute no visible text.
BREAK = set("""address article aside blockquote body br caption center dd
details div dl dt fieldset figcaption figure footer form frameset h1 h2 h3 h4
h5 h6 header hr html legend li main menu nav ol option p pre section select
summary table tbody td textarea tfoot th thead tr ul""".split())
DROP = set("""audio canvas embed frame head iframe link math meta noscript
object script style svg template title video""".split())
VOID = {"br", "hr", "img", "input", "meta", "link"}
RAW = {"script", "style"}


class E:
    """An element: tag, attributes (ordered list of pairs), children."""
    __slots__ = ("tag", "attrs", "kids")

    def __init__(self, tag, attrs=None, kids=()):
        self.tag = tag
        self.attrs = list(attrs.items()) if isinstance(attrs, dict) else list(attrs or ())
        self.kids = []
        self.add(*kids)

    def add(self, *kids):
        for k in kids:
            if k is None:
                continue
            if isinstance(k, (list, tuple)):
                self.add(*k)
            else:
                self.kids.append(k)
        return self


def h(tag, attrs=None, *kids):
    return E(tag, attrs, kids)


def esc_text(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def esc_attr(s):
    return esc_text(s).replace('"', "&quot;")


def serialize(node, out):
    if isinstance(node, str):
        out.append(esc_text(node))
        return
    block = node.tag in BREAK or node.tag in DROP
    # Newlines only next to block tags, where whitespace never changes the
    # normalized text.
    if block:
        out.append("\n")
    out.append("<" + node.tag)
    for k, v in node.attrs:
        out.append(" " + k if v is None else ' %s="%s"' % (k, esc_attr(v)))
    out.append(">")
    if node.tag in VOID:
        return
    if node.tag in RAW:
        out.extend(node.kids)
    else:
        for k in node.kids:
            serialize(k, out)
    if node.tag in BREAK:
        out.append("\n")
    out.append("</%s>" % node.tag)


def raw_text(node, out):
    if isinstance(node, str):
        out.append(node)
        return
    if node.tag in DROP:
        return
    brk = node.tag in BREAK
    if brk:
        out.append(" ")
    for k in node.kids:
        raw_text(k, out)
    if brk:
        out.append(" ")


def norm(s):
    return " ".join(s.split())


def text_of(node):
    parts = []
    raw_text(node, parts)
    return norm("".join(parts))


def element_paths(root):
    """Locator of every element, as tbk prints block paths: /html[1]/body[1]/
    div[2] (1-based index among same-tag element siblings, always given),
    and each element's position in document order."""
    paths = {id(root): "/%s[1]" % root.tag}
    order = {}
    stack = [root]
    while stack:
        node = stack.pop()
        order[id(node)] = len(order)
        seen = {}
        base = paths[id(node)]
        kids = [k for k in node.kids if isinstance(k, E)]
        for k in kids:
            seen[k.tag] = seen.get(k.tag, 0) + 1
            paths[id(k)] = "%s/%s[%d]" % (base, k.tag, seen[k.tag])
        stack.extend(reversed(kids))
    return paths, order


# --------------------------------------------------------------- languages
ONSETS = {
    "en": "b c d f g h j k l m n p r s t v w y br cr dr fl gr pl pr st str th sh ch tr sp cl bl".split(),
    "de": "b d f g h k l m n p r s t w z br fr gr kr pf sch st sp tr zw".split(),
    "fr": "b c d f g j l m n p r s t v ch cr pl pr tr gr br".split(),
    "es": "b c d f g j l m n p r s t v ll ch br cr pr tr gr".split(),
    "ru": "б в г д ж з к л м н п р с т ф х ч ш бр вр гр др кр пр ст тр".split(),
}
NUCLEI = {
    "en": "a e i o u a e i o ea ou ai ee oo io".split(),
    "de": "a e i o u a e i ä ö ü ie ei au eu".split(),
    "fr": "a e i o u a e é è ê ou ai au eu oi".split(),
    "es": "a e i o u a e o á é í ó ú ue ie".split(),
    "ru": "а е и о у а о е ы я ю ё".split(),
}
CODAS = {
    "en": ["", "", "", "n", "r", "s", "t", "l", "m", "nd", "st", "ck", "ng", "rt", "ll"],
    "de": ["", "", "n", "r", "s", "t", "l", "ch", "ng", "ß", "tz", "nd", "st"],
    "fr": ["", "", "", "n", "r", "s", "t", "l", "x", "ç", "re", "nt"],
    "es": ["", "", "", "n", "r", "s", "l", "z", "ñ", "d"],
    "ru": ["", "", "", "н", "т", "й", "р", "ль", "ст", "к", "м"],
}
FUNCTION_WORDS = {
    "en": """the of and to a in is it that for on was with as by at from this be
are or have not an they which one you were all there would their we been has
when who will more no if out so what up its about into than them can only other
new some could time these two may then do first any now such like our over even
most made after also did many before must through back where much your way well
down should because each just those people how too little good very make still
own see work long here between both being under never day same another while
last might great year off come since against right used take three""".split(),
    "de": """der die das und in den von zu mit sich des auf für ist im dem nicht
ein eine als auch es an werden aus er hat dass sie nach wird bei einer um am
sind noch wie einem über einen so zum war haben nur oder aber vor zur bis mehr
durch man sein wurde sei schon wenn unter kann gegen heute immer""".split(),
    "fr": """le la les de des du et en un une est que qui dans pour pas sur au
avec ce il elle son sa par plus ne se mais ou où été être très aussi comme
après déjà à nous vous leur cette tout bien même encore entre sans depuis""".split(),
    "es": """el la los las de del y en un una que es por con para no se su al lo
como más pero sus le ya o este sí porque esta entre cuando muy sin sobre
también hasta hay donde desde todo nos durante uno ni contra otros ese eso ante
ellos esto antes algunos unos otro otras otra él tanto esa estos mucho""".split(),
    "ru": """и в не на что тот быть с он а весь это как она по но они к у из мы
за вы так же от этот который мочь о один ещё бы такой только себя свой какой
когда уже для вот кто да год до или если время нет самый ни стать даже другой
наш под где дело есть сам раз чтобы два там чем день""".split(),
}
HANZI = ("的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去"
         "之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如"
         "前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种"
         "声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口"
         "使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九"
         "笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王"
         "果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱"
         "让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近"
         "留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李")

LANGS = ["en", "de", "ru", "zh", "fr", "es"]
MONTHS = {
    "en": "January February March April May June July August September October November December".split(),
    "de": "Januar Februar März April Mai Juni Juli August September Oktober November Dezember".split(),
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre".split(),
    "es": "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre".split(),
    "ru": "января февраля марта апреля мая июня июля августа сентября октября ноября декабря".split(),
}


def fmt_date(lang, d):
    if lang == "zh":
        return "%d年%d月%d日" % (d.year, d.month, d.day)
    if lang == "en":
        return "%s %d, %d" % (MONTHS["en"][d.month - 1], d.day, d.year)
    if lang == "de":
        return "%d. %s %d" % (d.day, MONTHS["de"][d.month - 1], d.year)
    if lang == "es":
        return "%d de %s de %d" % (d.day, MONTHS["es"][d.month - 1], d.year)
    return "%d %s %d" % (d.day, MONTHS[lang][d.month - 1], d.year)


# UI wording per language. Styles use different keys (and so different
# wording) for the same role: e.g. "recent" (blog), "latest" (magazine),
# "site_menu" (old table site), "toc" (documentation).
UI = {
    "en": dict(
        menu=["Home", "News", "Travel", "Food & Drink", "Culture", "Technology", "Science",
              "Sports", "Health", "Opinion", "About us", "Contact"],
        recent="Recent Posts", latest="Latest stories", blogroll="Blogroll", links="Links of the week",
        about_site="About this site", site_menu="Site menu", toc="Table of contents",
        about_text="{site} is an independent publication written by a small team of volunteers. "
                   "We publish new articles every week and welcome letters from our readers.",
        welcome="Welcome to {site}!", rights="All rights reserved.", contact="Contact",
        privacy="Privacy policy", terms="Terms of use", imprint="Imprint", sitemap="Sitemap",
        cookie="We use cookies to improve your experience on our website. By continuing to browse, "
               "you agree to our use of cookies.", accept="Accept", more_info="Learn more",
        share="Share this article", share_short="Share", email="E-mail",
        related="Related articles", promo="Subscribe to our weekly newsletter and never miss a story. "
        "Readers who sign up this month get our printed yearbook for free.", promo_btn="Subscribe now",
        comments="Comments", leave="Leave a comment", says="says:", posted="Posted on {date} by {author}",
        prev="Previous", next="Next", tags="Tags", updated="Last updated on {date}.",
        edit="Edit this page", follow="Follow us", powered="Powered by {engine}", note="Note",
        search="Search", go="Go", home_crumb="Home", guestbook="Guestbook", best="Best viewed in any browser.",
        webmaster="Webmaster", name="Name", message="Message", send="Post comment",
        newsletter="Newsletter", on_this_page="On this page", version="Version"),
    "de": dict(
        menu=["Startseite", "Nachrichten", "Reisen", "Essen & Trinken", "Kultur", "Technik",
              "Wissenschaft", "Sport", "Gesundheit", "Meinung", "Über uns", "Kontakt"],
        recent="Neueste Beiträge", latest="Aktuelle Geschichten", blogroll="Blogroll",
        links="Links der Woche", about_site="Über diese Seite", site_menu="Menü", toc="Inhaltsverzeichnis",
        about_text="{site} ist ein unabhängiges Magazin, das von einem kleinen Team Ehrenamtlicher "
                   "geschrieben wird. Wir veröffentlichen jede Woche neue Artikel und freuen uns über Leserbriefe.",
        welcome="Willkommen bei {site}!", rights="Alle Rechte vorbehalten.", contact="Kontakt",
        privacy="Datenschutzerklärung", terms="Nutzungsbedingungen", imprint="Impressum", sitemap="Sitemap",
        cookie="Wir verwenden Cookies, um Ihnen ein besseres Nutzungserlebnis zu bieten. Wenn Sie "
               "weitersurfen, stimmen Sie der Verwendung von Cookies zu.", accept="Akzeptieren",
        more_info="Mehr erfahren", share="Diesen Artikel teilen", share_short="Teilen", email="E-Mail",
        related="Ähnliche Artikel", promo="Abonnieren Sie unseren wöchentlichen Newsletter und verpassen "
        "Sie keine Geschichte mehr. Wer sich diesen Monat anmeldet, erhält unser gedrucktes Jahrbuch gratis.",
        promo_btn="Jetzt abonnieren", comments="Kommentare", leave="Schreiben Sie einen Kommentar",
        says="sagt:", posted="Veröffentlicht am {date} von {author}", prev="Zurück", next="Weiter",
        tags="Schlagwörter", updated="Zuletzt aktualisiert am {date}.", edit="Diese Seite bearbeiten",
        follow="Folgen Sie uns", powered="Betrieben mit {engine}", note="Hinweis", search="Suche", go="Los",
        home_crumb="Startseite", guestbook="Gästebuch", best="Optimiert für alle Browser.",
        webmaster="Webmaster", name="Name", message="Nachricht", send="Kommentar abschicken",
        newsletter="Newsletter", on_this_page="Auf dieser Seite", version="Version"),
    "fr": dict(
        menu=["Accueil", "Actualités", "Voyages", "Cuisine & Vins", "Culture", "Technologie",
              "Sciences", "Sport", "Santé", "Opinions", "À propos", "Contact"],
        recent="Articles récents", latest="Dernières histoires", blogroll="Blogs amis",
        links="Liens de la semaine", about_site="À propos de ce site", site_menu="Menu du site",
        toc="Table des matières",
        about_text="{site} est une publication indépendante rédigée par une petite équipe de bénévoles. "
                   "Nous publions de nouveaux articles chaque semaine et nos lecteurs peuvent nous écrire.",
        welcome="Bienvenue sur {site} !", rights="Tous droits réservés.", contact="Contact",
        privacy="Politique de confidentialité", terms="Conditions d'utilisation", imprint="Mentions légales",
        sitemap="Plan du site",
        cookie="Nous utilisons des cookies pour améliorer votre expérience sur notre site. En poursuivant "
               "votre navigation, vous acceptez leur utilisation.", accept="J'accepte",
        more_info="En savoir plus", share="Partager cet article", share_short="Partager", email="Courriel",
        related="Articles similaires", promo="Abonnez-vous à notre lettre hebdomadaire pour ne manquer "
        "aucune histoire. Les lecteurs inscrits ce mois-ci reçoivent notre annuaire imprimé.",
        promo_btn="Je m'abonne", comments="Commentaires", leave="Laisser un commentaire", says="a écrit :",
        posted="Publié le {date} par {author}", prev="Précédent", next="Suivant", tags="Étiquettes",
        updated="Dernière mise à jour le {date}.", edit="Modifier cette page", follow="Suivez-nous",
        powered="Propulsé par {engine}", note="Remarque", search="Rechercher", go="OK",
        home_crumb="Accueil", guestbook="Livre d'or", best="Compatible avec tous les navigateurs.",
        webmaster="Webmestre", name="Nom", message="Message", send="Publier le commentaire",
        newsletter="Lettre d'information", on_this_page="Sur cette page", version="Version"),
    "es": dict(
        menu=["Inicio", "Noticias", "Viajes", "Gastronomía", "Cultura", "Tecnología", "Ciencia",
              "Deportes", "Salud", "Opinión", "Quiénes somos", "Contacto"],
        recent="Entradas recientes", latest="Últimas historias", blogroll="Blogs amigos",
        links="Enlaces de la semana", about_site="Sobre este sitio", site_menu="Menú del sitio",
        toc="Índice",
        about_text="{site} es una publicación independiente escrita por un pequeño equipo de voluntarios. "
                   "Publicamos artículos nuevos cada semana y respondemos a las cartas de los lectores.",
        welcome="¡Bienvenidos a {site}!", rights="Todos los derechos reservados.", contact="Contacto",
        privacy="Política de privacidad", terms="Condiciones de uso", imprint="Aviso legal",
        sitemap="Mapa del sitio",
        cookie="Utilizamos cookies para mejorar su experiencia en nuestro sitio. Si continúa navegando, "
               "acepta su uso.", accept="Aceptar", more_info="Más información",
        share="Compartir este artículo", share_short="Compartir", email="Correo",
        related="Artículos relacionados", promo="Suscríbase a nuestro boletín semanal y no se pierda "
        "ninguna historia. Quienes se inscriban este mes recibirán nuestro anuario impreso.",
        promo_btn="Suscribirse", comments="Comentarios", leave="Deja un comentario", says="dice:",
        posted="Publicado el {date} por {author}", prev="Anterior", next="Siguiente", tags="Etiquetas",
        updated="Última actualización: {date}.", edit="Editar esta página", follow="Síguenos",
        powered="Funciona con {engine}", note="Nota", search="Buscar", go="Ir", home_crumb="Inicio",
        guestbook="Libro de visitas", best="Compatible con todos los navegadores.",
        webmaster="Administrador", name="Nombre", message="Mensaje", send="Publicar comentario",
        newsletter="Boletín", on_this_page="En esta página", version="Versión"),
    "ru": dict(
        menu=["Главная", "Новости", "Путешествия", "Еда и напитки", "Культура", "Технологии",
              "Наука", "Спорт", "Здоровье", "Мнения", "О нас", "Контакты"],
        recent="Свежие записи", latest="Последние материалы", blogroll="Друзья блога",
        links="Ссылки недели", about_site="Об этом сайте", site_menu="Меню сайта", toc="Содержание",
        about_text="{site} — независимое издание, которое пишет небольшая команда добровольцев. "
                   "Мы публикуем новые статьи каждую неделю и всегда рады письмам читателей.",
        welcome="Добро пожаловать на {site}!", rights="Все права защищены.", contact="Контакты",
        privacy="Политика конфиденциальности", terms="Условия использования", imprint="Выходные данные",
        sitemap="Карта сайта",
        cookie="Мы используем файлы cookie, чтобы сделать сайт удобнее. Продолжая просмотр, "
               "вы соглашаетесь с их использованием.", accept="Принять", more_info="Подробнее",
        share="Поделиться статьёй", share_short="Поделиться", email="Почта",
        related="Похожие статьи", promo="Подпишитесь на нашу еженедельную рассылку и не пропустите ни "
        "одной истории. Подписчики этого месяца получат печатный ежегодник бесплатно.",
        promo_btn="Подписаться", comments="Комментарии", leave="Оставить комментарий", says="пишет:",
        posted="Опубликовано {date}, автор: {author}", prev="Назад", next="Далее", tags="Метки",
        updated="Последнее обновление: {date}.", edit="Редактировать страницу", follow="Мы в соцсетях",
        powered="Работает на {engine}", note="Примечание", search="Поиск", go="Найти",
        home_crumb="Главная", guestbook="Гостевая книга", best="Сайт работает во всех браузерах.",
        webmaster="Администратор", name="Имя", message="Сообщение", send="Отправить комментарий",
        newsletter="Рассылка", on_this_page="На этой странице", version="Версия"),
    "zh": dict(
        menu=["首页", "国际新闻", "旅游攻略", "美食天地", "文化艺术", "科技前沿", "科学探索",
              "体育赛事", "健康生活", "评论观点", "关于我们", "联系我们"],
        recent="最新文章", latest="最新报道", blogroll="友情链接", links="本周推荐链接",
        about_site="关于本站", site_menu="网站导航", toc="目录",
        about_text="{site}是一家由志愿者小团队撰写的独立刊物。我们每周发表新文章，欢迎读者来信交流。",
        welcome="欢迎访问{site}！", rights="版权所有。", contact="联系方式", privacy="隐私政策",
        terms="使用条款", imprint="网站声明", sitemap="网站地图",
        cookie="本网站使用Cookie来改善您的浏览体验。继续浏览即表示您同意我们使用Cookie。",
        accept="接受", more_info="了解更多", share="分享本文", share_short="分享", email="电子邮件",
        related="相关文章", promo="订阅我们的每周通讯，不错过任何一篇报道。本月订阅的读者可免费获得印刷版年鉴。",
        promo_btn="立即订阅", comments="评论", leave="发表评论", says="说：",
        posted="发布于{date}，作者：{author}", prev="上一篇", next="下一篇", tags="标签",
        updated="最后更新于{date}。", edit="编辑此页", follow="关注我们", powered="由{engine}驱动",
        note="注意", search="搜索", go="搜索", home_crumb="首页", guestbook="留言簿",
        best="支持所有浏览器。", webmaster="网站管理员", name="姓名", message="留言", send="提交评论",
        newsletter="电子报", on_this_page="本页内容", version="版本"),
}
SITE_SUFFIX = ["press", "notes", "journal", "daily", "review", "times", "works", "post", "gazette"]


class Lang:
    """Procedural prose in one language: a fixed vocabulary of generated
    words (same for every seed) mixed with real function words."""

    def __init__(self, code):
        self.code = code
        self.ui = UI[code]
        vr = random.Random("vocab:" + code)
        if code == "zh":
            self.vocab = sorted({"".join(vr.choice(HANZI) for _ in range(vr.choice((1, 2, 2, 2, 3))))
                                 for _ in range(3000)})
            self.func = list("的了是在和也都就")
        else:
            # Mostly single consonants and vowels, open syllables: words that
            # read like words, not like consonant clusters.
            single = [o for o in ONSETS[code] if len(o) == 1]
            cluster = [o for o in ONSETS[code] if len(o) > 1]
            vowels = NUCLEI[code]
            codas = CODAS[code]
            words = set()
            while len(words) < 2500:
                parts = []
                for i in range(vr.choice((1, 2, 2, 2, 3, 3))):
                    onset = vr.choice(cluster if vr.random() < 0.2 else single)
                    coda = vr.choice(codas) if vr.random() < 0.4 else ""
                    parts.append(onset + vr.choice(vowels) + coda)
                w = "".join(parts)
                if 3 <= len(w) <= 12:
                    words.add(w)
            self.vocab = sorted(words)
            vr.shuffle(self.vocab)
            self.func = FUNCTION_WORDS[code]
        # Zipf-like: the first vocabulary words are far more frequent.
        acc, cum = 0.0, []
        for i in range(len(self.vocab)):
            acc += 1.0 / (i + 10)
            cum.append(acc)
        self.cum = cum

    def word(self, r):
        if self.code != "zh" and r.random() < 0.38:
            return r.choice(self.func)
        return r.choices(self.vocab, cum_weights=self.cum)[0]

    def content_word(self, r):
        return r.choices(self.vocab, cum_weights=self.cum)[0]

    def sentence(self, r, lo=7, hi=22):
        n = r.randint(lo, hi)
        if self.code == "zh":
            parts = []
            for i in range(n):
                parts.append(self.word(r) if r.random() < 0.8 else r.choice(self.func))
                if 0 < i < n - 2 and r.random() < 0.12:
                    parts.append("，")
            return "".join(parts) + r.choice("。。。。？！")
        ws = [self.word(r) for _ in range(n)]
        out = []
        for i, w in enumerate(ws):
            out.append(w)
            if 1 < i < n - 2 and r.random() < 0.09:
                out[-1] += ","
        s = " ".join(out)
        if r.random() < 0.05:
            s += " " + str(r.randint(2, 1999))
        return s[:1].upper() + s[1:] + r.choice("......?!")

    def paragraph(self, r, lo=2, hi=6):
        sep = "" if self.code == "zh" else " "
        return sep.join(self.sentence(r) for _ in range(r.randint(lo, hi)))

    def title(self, r, lo=3, hi=8):
        if self.code == "zh":
            return "".join(self.content_word(r) for _ in range(r.randint(lo, hi)))
        ws = [self.content_word(r) if i % 3 != 1 or r.random() < 0.5 else self.word(r)
              for i in range(r.randint(lo, hi))]
        if self.code == "en":
            ws = [w[:1].upper() + w[1:] if (len(w) > 3 or i == 0) else w for i, w in enumerate(ws)]
        else:
            ws[0] = ws[0][:1].upper() + ws[0][1:]
        return " ".join(ws)

    def name(self, r):
        if self.code == "zh":
            return r.choice("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗") + self.content_word(r)[:2]
        first = self.content_word(r)
        last = self.content_word(r)
        return first[:1].upper() + first[1:] + " " + last[:1].upper() + last[1:]

    def slug(self, text, words=5):
        if self.code == "zh":
            return "".join(ch for ch in text if ch in HANZI)[:8]
        kept = []
        for w in text.lower().split():
            w = "".join(ch for ch in w if ch.isalnum())
            if w:
                kept.append(w)
        return "-".join(kept[:words])


def ascii_word(r):
    w = "".join(r.choice(ONSETS["en"]) + r.choice("aeiou") + r.choice(["", "", "n", "r", "l", "s"])
                for _ in range(r.randint(2, 3)))
    return w[:12]


# ------------------------------------------------------------------ sites
class Site:
    pass


class Page:
    pass


def make_site(index, args, langs):
    s = Site()
    r = random.Random("site:%d:%d" % (args.seed, index))
    s.index = index
    s.lang = langs[LANGS[index % len(LANGS)]]
    s.style = args.template_style if args.template_style is not None else index % len(STYLES)
    s.key = "%s-%s" % (ascii_word(r), r.choice(SITE_SUFFIX))
    s.host = s.key + ".example"
    L, ui = s.lang, s.lang.ui
    if L.code == "zh":
        s.name = L.content_word(r) + L.content_word(r) + r.choice(["日报", "周刊", "笔记", "杂志"])
    else:
        s.name = L.title(r, 2, 3)
    s.tagline = L.sentence(r, 5, 9)
    menu = ui["menu"]
    middle = sorted(r.sample(range(1, len(menu) - 2), r.randint(5, 7)))
    s.nav = [menu[0]] + [menu[i] for i in middle] + menu[-2:]
    s.sections = [menu[i] for i in middle]
    s.engine = ascii_word(r).capitalize() + r.choice(["Press", "CMS", " Publisher", "Site"])
    s.year = 2005 + r.randint(0, 17)
    s.start = date(s.year, 1, 1) + timedelta(days=r.randint(0, 200))
    s.authors = [L.name(r) for _ in range(3)]
    s.commenters = [L.name(r) for _ in range(12)]
    s.blogroll = [(L.title(r, 2, 3), "http://%s.example/" % ascii_word(r)) for _ in range(r.randint(4, 6))]
    s.social = ["Facebook", "Twitter", "RSS", ui["email"]]
    s.cookie = r.random() < 0.7
    s.share = r.random() < 0.6
    s.breadcrumb = r.random() < 0.6
    s.related_titles = [L.title(r) for _ in range(3)]
    s.doc_chapters = [L.title(r, 2, 4) for _ in range(r.randint(6, 9))]
    s.pages = []
    for p in range(args.pages):
        s.pages.append(make_page(s, p, args))
    promo_pages = r.sample(range(args.pages), min(2, args.pages))
    for p in s.pages:
        p.promo = p.index in promo_pages
    # Recent posts: the five newest pages, shown with their date so the list
    # item never equals a page's own title block.
    s.recent = [(p.title, fmt_date(L.code, p.date), p.urlpath) for p in s.pages[-5:]][::-1]
    return s


def make_page(s, index, args):
    p = Page()
    r = random.Random("page:%d:%d:%d" % (args.seed, s.index, index))
    L = s.lang
    p.index = index
    p.title = L.title(r)
    p.date = s.start + timedelta(days=3 * index + r.randint(0, 2))
    p.author = r.choice(s.authors)
    p.section = r.choice(s.sections)
    p.id = "%03d-%s" % (index + 1, L.slug(p.title))
    style = STYLES[s.style][0]
    if style == "table":
        p.urlpath = "index.php?page=%d&lang=%s" % (index + 1, L.code)
    elif style == "div":
        p.urlpath = "%04d/%02d/%s/" % (p.date.year, p.date.month, L.slug(p.title))
    elif style == "html5":
        p.urlpath = "%s/%s.html" % (L.slug(p.section, 2) or "s", p.id)
    else:
        p.urlpath = "docs/%s.html" % p.id
    p.url = "http://%s/%s" % (s.host, urllib.parse.quote(p.urlpath, safe="/?=&"))
    # Article body: a list of (kind, payload).
    body = []
    body.append(("p", L.paragraph(r, 3, 6)))
    for _ in range(r.randint(2, 6)):
        x = r.random()
        if x < 0.15:
            body.append(("h", L.title(r, 2, 5)))
        elif x < 0.25 and not any(k == "ul" for k, _ in body):
            body.append(("ul", [L.sentence(r, 4, 12) for _ in range(r.randint(3, 6))]))
        elif x < 0.32 and not any(k == "table" for k, _ in body):
            cols = r.randint(2, 4)
            head = [L.content_word(r).capitalize() for _ in range(cols)]
            rows = [[L.content_word(r) if c == 0 else str(r.randint(1, 9999)) for c in range(cols)]
                    for _ in range(r.randint(3, 6))]
            body.append(("table", (head, rows)))
        elif x < 0.38 and style == "docs":
            body.append(("pre", "\n".join("%s(%s, %d)" % (L.content_word(r) if L.code != "zh" else
                                                          ascii_word(r), ascii_word(r), r.randint(1, 99))
                                          for _ in range(r.randint(2, 5)))))
        else:
            body.append(("p", L.paragraph(r)))
    body.append(("p", L.paragraph(r, 1, 4)))
    p.body = body
    p.related = r.random() < 0.3
    p.comments = []
    if r.random() < 0.5:
        for _ in range(r.randint(1, 5)):
            when = p.date + timedelta(days=r.randint(0, 30))
            p.comments.append((r.choice(s.commenters), fmt_date(L.code, when), L.paragraph(r, 1, 3)))
    return p


# ---------------------------------------------------------- page building
class Builder:
    """Collects the regions of one page while the styles build its tree."""

    def __init__(self, site, page):
        self.site, self.page = site, page
        self.regions = []  # (role, kind, shared, element)
        self.page_only = []  # wrappers of page-specific regions only (not template)

    def reg(self, role, kind, shared, el):
        self.regions.append((role, kind, shared, el))
        return el

    def t(self, kind, el, shared="all"):
        return self.reg("template", kind, shared, el)

    def c(self, kind, el):
        return self.reg("content", kind, "page", el)

    def m(self, kind, el):
        return self.reg("meta", kind, "page", el)

    def pg(self, el):
        """A wrapper that holds only page-specific regions (an article's list
        or table, the comments): not part of the node-level template."""
        self.page_only.append(el)
        return el


def head(site, page, style_css, extra_meta):
    return h("head", None,
             extra_meta,
             h("title", None, "%s | %s" % (page.title, site.name)),
             h("link", {"rel": "stylesheet", "href": "/static/site.css"}),
             h("style", None, style_css),
             h("script", None, "window.dataLayer=window.dataLayer||[];"
               "function track(e){dataLayer.push({event:e,site:'%s'});}" % site.key))


def site_link(site, p):
    return "/" + urllib.parse.quote(p.urlpath, safe="/?=&")


def article_nodes(b, tag_p="p", heading="h2", table_attrs=None, list_tag="ul"):
    """The article body as elements, each content region registered."""
    nodes = []
    for kind, payload in b.page.body:
        if kind == "p":
            nodes.append(b.c("paragraph", h(tag_p, None, payload)))
        elif kind == "h":
            nodes.append(b.c("heading", h(heading, None, payload)))
        elif kind == "ul":
            nodes.append(b.pg(h(list_tag, None, [b.c("list-item", h("li", None, x)) for x in payload])))
        elif kind == "pre":
            nodes.append(b.c("code", h("pre", {"class": "code"}, payload)))
        elif kind == "table":
            head_row, rows = payload
            nodes.append(b.pg(h("table", table_attrs or {"class": "data"},
                                b.c("table-row", h("tr", None, [h("th", None, x) for x in head_row])),
                                [b.c("table-row", h("tr", None, [h("td", None, x) for x in row]))
                                 for row in rows])))
    return nodes


def nav_link(site, i, default, label, page=None):
    """Menu entry i: with --links its sections lead to the section pages (a
    "#" and a script call with --links dynamic: a menu only JavaScript can
    follow); else the default href, a page no site has. With --mark-current
    the entry of the section page it is on is marked as sites mark it
    (class="active" aria-current="page")."""
    links = getattr(site, "links", None)
    if links is None or not 1 <= i <= len(site.section_pages):
        return h("a", {"href": default}, label)
    href = site_link(site, site.section_pages[i - 1])
    if links == "dynamic":
        return h("a", {"href": "#", "onclick": "go('%s');return false" % href}, label)
    if getattr(site, "mark_current", False) and page is site.section_pages[i - 1]:
        return h("a", [("href", href), ("class", "active"), ("aria-current", "page")], label)
    return h("a", {"href": href}, label)


def make_section_pages(s, args):
    """--links: one page per menu section, in the site's template, listing
    (as text) the titles of its articles."""
    L = s.lang
    out = []
    for k, name in enumerate(s.sections):
        r = random.Random("section:%d:%d:%d" % (args.seed, s.index, k))
        p = Page()
        p.is_section = True
        p.index = k
        p.title = name
        p.date = s.start
        p.author = s.authors[0]
        p.section = name
        p.id = "section-%02d" % (k + 1)
        p.urlpath = "section/%02d/" % (k + 1)
        p.url = "http://%s/%s" % (s.host, p.urlpath)
        titles = [q.title for q in s.pages if q.section == name] or [L.title(r)]
        p.body = [("p", L.paragraph(r, 2, 4)), ("ul", titles)]
        p.related = False
        p.promo = False
        p.comments = []
        out.append(p)
    return out


def footer_links(site, ui):
    return [(ui["privacy"], "/privacy"), (ui["terms"], "/terms"), (ui["imprint"], "/imprint"),
            (ui["sitemap"], "/sitemap")]


# Style 0: a 2000s table layout with font tags and <br>-separated menus.
CSS_TABLE = "body{background:#fff}td.navcell{background:#ddeeff}.hdr{font-size:22px}"


def style_table(b):
    s, p, ui = b.site, b.page, b.site.lang.ui
    menu = b.t("nav", h("td", {"class": "navcell", "width": "160", "valign": "top"},
                        h("b", None, ui["site_menu"]), h("br"),
                        [[nav_link(s, i, "/?cat=%d" % i, label, p), h("br")] for i, label in enumerate(s.nav)]))
    banner = b.t("header", h("td", {"colspan": "3", "class": "hdr", "bgcolor": "#336699"},
                             h("font", {"size": "5", "color": "#ffffff"}, h("b", None, s.name)),
                             h("br"),
                             h("font", {"size": "2", "color": "#ffffff"},
                               h("i", None, ui["welcome"].format(site=s.name) + " " + s.tagline))))
    rows = []
    if s.breadcrumb:
        rows.append(b.t("breadcrumb", h("div", {"class": "crumbs"},
                                        h("a", {"href": "/"}, ui["home_crumb"]), " > ",
                                        h("a", {"href": "/?cat=x"}, p.section)), shared="some"))
    rows.append(b.c("title", h("h2", {"class": "ttl"}, p.title)))
    rows.append(b.m("byline", h("font", {"size": "1", "color": "#666666"},
                                ui["posted"].format(date=fmt_date(s.lang.code, p.date), author=p.author))))
    rows.extend(article_nodes(b, table_attrs={"border": "1", "cellpadding": "3", "cellspacing": "0"}))
    if p.promo:
        rows.append(b.t("promo", h("table", {"class": "promo", "bgcolor": "#ffffcc", "width": "100%"},
                                   h("tr", None, h("td", None, h("b", None, ui["newsletter"] + ": "),
                                                   ui["promo"], " ",
                                                   h("a", {"href": "/subscribe"}, ui["promo_btn"])))),
                        shared="some"))
    if p.related:
        rows.append(b.t("related", h("div", {"class": "rel"}, h("b", None, ui["related"] + ":"), h("br"),
                                     [[h("a", {"href": "/rel%d" % i}, t), h("br")]
                                      for i, t in enumerate(s.related_titles)]), shared="some"))
    if p.comments:
        rows.append(b.t("comments-heading", h("h3", None, ui["guestbook"]), shared="some"))
        rows.append(b.pg(h("table", {"class": "gb", "width": "100%", "cellpadding": "4"},
                      [b.c("comment", h("tr", None, h("td", {"class": "gbentry"},
                                                      h("b", None, who), " (", when, "):", h("br"), txt)))
                       for who, when, txt in p.comments])))
    main = h("td", {"class": "maincell", "valign": "top"}, rows)
    right = h("td", {"class": "sidecell", "width": "200", "valign": "top"},
              b.t("sidebar-links", h("div", {"class": "box"}, h("b", None, ui["links"]), h("br"),
                                     [[h("a", {"href": u}, n), h("br")] for n, u in s.blogroll])),
              b.t("sidebar-about", h("div", {"class": "box"}, h("b", None, ui["about_site"]), h("br"),
                                     ui["about_text"].format(site=s.name))),
              b.t("sidebar-recent", h("div", {"class": "box"}, h("b", None, ui["recent"]), h("br"),
                                      [[h("a", {"href": "/" + u}, t), " ", h("small", None, "(" + d + ")"),
                                        h("br")] for t, d, u in s.recent])))
    foot = b.t("footer", h("td", {"colspan": "3", "align": "center", "class": "foot"},
                           h("font", {"size": "1"},
                             "© %d-%d %s. %s " % (s.year, s.year + 3, s.name, ui["rights"]),
                             ui["webmaster"], ": ", h("a", {"href": "mailto:webmaster@" + s.host},
                                                      "webmaster@" + s.host), " | ",
                             [[h("a", {"href": u}, n), " | "] for n, u in footer_links(s, ui)],
                             ui["best"])))
    body = [h("table", {"id": "layout", "width": "100%", "border": "0", "cellpadding": "6"},
              h("tr", None, banner), h("tr", None, menu, main, right), h("tr", None, foot))]
    if s.share:
        body.append(b.t("share", h("center", None, h("font", {"size": "2"}, ui["share_short"], ": ",
                                                     [[h("a", {"href": "#"}, n), " "] for n in s.social]))))
    if s.cookie:
        body.append(b.t("cookie", h("div", {"id": "cookiebar", "style": "position:fixed;bottom:0"},
                                    ui["cookie"], " ", h("a", {"href": "#ok"}, ui["accept"]))))
    meta = h("meta", {"http-equiv": "Content-Type", "content": "text/html; charset=utf-8"})
    return h("html", None, head(s, p, CSS_TABLE, meta),
             h("body", {"bgcolor": "#ffffff", "topmargin": "0"}, body)), "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\">"


# Style 1: a WordPress-like blog built from nested divs with widget classes.
CSS_DIV = "#page{max-width:1100px}.widget{margin:1em 0}.entry-content p{line-height:1.6}"


def style_div(b):
    s, p, ui = b.site, b.page, b.site.lang.ui
    masthead = h("div", {"id": "masthead", "class": "site-header"},
                 b.t("header", h("div", {"class": "site-branding"},
                                 h("p", {"class": "site-title"}, h("a", {"href": "/", "rel": "home"}, s.name)),
                                 h("p", {"class": "site-description"}, s.tagline))),
                 h("div", {"id": "site-navigation", "class": "main-navigation"},
                   b.t("nav", h("div", {"class": "menu-main-container"},
                                h("ul", {"id": "menu-main", "class": "menu"},
                                  [h("li", {"class": "menu-item menu-item-%d" % (i + 10)},
                                     nav_link(s, i, "/category/%d/" % i, label, p))
                                   for i, label in enumerate(s.nav)])))))
    entry = [h("div", {"class": "entry-header"},
               b.c("title", h("h1", {"class": "entry-title"}, p.title)),
               b.m("byline", h("div", {"class": "entry-meta"},
                               h("span", {"class": "posted-on"},
                                 ui["posted"].format(date=fmt_date(s.lang.code, p.date), author=p.author))))),
             h("div", {"class": "entry-content"}, article_nodes(b, heading="h3"))]
    if s.share:
        entry.append(b.t("share", h("div", {"class": "sharedaddy sd-sharing-enabled"},
                                    h("h3", {"class": "sd-title"}, ui["share"]),
                                    h("ul", None, [h("li", {"class": "share-item"}, h("a", {"href": "#"}, n))
                                                   for n in s.social]))))
    if p.related:
        entry.append(b.t("related", h("div", {"class": "jp-relatedposts"},
                                      h("h3", None, ui["related"]),
                                      [h("div", {"class": "jp-relatedposts-post"},
                                         h("a", {"href": "/r/%d" % i}, t))
                                       for i, t in enumerate(s.related_titles)]), shared="some"))
    if p.promo:
        entry.append(b.t("promo", h("div", {"class": "promo-box"},
                                    h("strong", None, ui["newsletter"]), " ", ui["promo"], " ",
                                    h("a", {"class": "button", "href": "/subscribe"}, ui["promo_btn"])),
                         shared="some"))
    article = h("div", {"id": "post-%d" % (p.index + 100), "class": "post type-post status-publish"}, entry)
    comments = []
    if p.comments:
        comments.append(b.m("comment-count", h("h2", {"class": "comments-title"},
                                               "%d %s" % (len(p.comments), ui["comments"]))))
        comments.append(b.pg(h("ol", {"class": "commentlist"},
                          [b.c("comment", h("li", {"class": "comment"},
                                             h("div", {"class": "comment-author vcard"},
                                               h("cite", {"class": "fn"}, who), " ",
                                               h("span", {"class": "says"}, ui["says"])),
                                             h("div", {"class": "comment-meta commentmetadata"}, when),
                                             h("p", None, txt)))
                           for who, when, txt in p.comments])))
    comments.append(b.t("comment-form", h("div", {"id": "respond"},
                                          h("h3", {"id": "reply-title"}, ui["leave"]),
                                          h("form", {"action": "/wp-comments-post.php", "method": "post"},
                                            h("p", None, h("label", None, ui["name"]), " ",
                                              h("input", {"name": "author"})),
                                            h("p", None, h("label", None, ui["message"]), " ",
                                              h("textarea", {"name": "comment"})),
                                            h("p", None, h("button", {"type": "submit"}, ui["send"]))))))
    primary = h("div", {"id": "primary", "class": "content-area"},
                h("div", {"id": "main", "class": "site-main"}, article,
                  h("div", {"id": "comments", "class": "comments-area"}, comments)))
    secondary = h("div", {"id": "secondary", "class": "widget-area"},
                  b.t("search", h("div", {"class": "widget widget_search"},
                                  h("form", {"role": "search", "action": "/"},
                                    h("input", {"type": "search", "name": "s"}),
                                    h("button", None, ui["search"])))),
                  b.t("sidebar-recent", h("div", {"class": "widget widget_recent_entries"},
                                          h("h2", {"class": "widget-title"}, ui["recent"]),
                                          h("ul", None, [h("li", None, h("a", {"href": "/" + u}, t), " ",
                                                           h("span", {"class": "post-date"}, d))
                                                         for t, d, u in s.recent]))),
                  b.t("sidebar-blogroll", h("div", {"class": "widget widget_links"},
                                            h("h2", {"class": "widget-title"}, ui["blogroll"]),
                                            h("ul", {"class": "xoxo blogroll"},
                                              [h("li", None, h("a", {"href": u}, n)) for n, u in s.blogroll]))))
    # The copyright year follows the post's date, as many blogs print it: the
    # footer is shared by the posts of one year, not by all.
    colophon = b.t("footer", h("div", {"id": "colophon", "class": "site-footer"},
                               h("div", {"class": "site-info"},
                                 "© %d %s · " % (p.date.year, s.name),
                                 h("a", {"href": "/contact/"}, ui["contact"]), " · ",
                                 h("a", {"href": "/privacy/"}, ui["privacy"]), " · ",
                                 h("span", {"class": "powered"}, ui["powered"].format(engine=s.engine)))),
                   shared="some")
    body = [h("div", {"id": "page", "class": "hfeed site"}, masthead,
              h("div", {"id": "content", "class": "site-content"}, primary, secondary), colophon)]
    if s.cookie:
        body.append(b.t("cookie", h("div", {"id": "cookie-law-info-bar", "class": "cli-bar"},
                                    h("span", None, ui["cookie"]), " ",
                                    h("a", {"class": "cli-accept", "href": "#"}, ui["accept"]), " ",
                                    h("a", {"href": "/privacy/"}, ui["more_info"]))))
    body.append(h("script", {"src": "/wp-includes/js/site.min.js"}))
    meta = h("meta", {"charset": "utf-8"})
    return h("html", {"lang": s.lang.code},
             head(s, p, CSS_DIV, [meta, h("meta", {"name": "generator", "content": s.engine})]),
             h("body", {"class": "post-template-default single single-post"}, body)), "<!DOCTYPE html>"


# Style 2: HTML5 magazine with semantic sectioning elements.
CSS_HTML5 = ":root{--accent:#c33}header.masthead{display:flex}aside{width:30%}"


def style_html5(b):
    s, p, ui = b.site, b.page, b.site.lang.ui
    top = h("header", {"class": "masthead"},
            b.t("header", h("div", {"class": "brand"},
                            h("a", {"class": "logo", "href": "/"}, s.name), " ",
                            h("span", {"class": "claim"}, s.tagline))),
            b.t("nav", h("nav", {"aria-label": "Main", "class": "primary-nav"},
                         h("ul", None, [h("li", None, nav_link(s, i, "/%d/" % i, label, p))
                                        for i, label in enumerate(s.nav)]))))
    art = []
    if s.breadcrumb:
        art.append(b.t("breadcrumb", h("nav", {"class": "breadcrumb", "aria-label": "Breadcrumb"},
                                       h("ol", None, h("li", None, h("a", {"href": "/"}, ui["home_crumb"])),
                                         h("li", None, h("a", {"href": "/s/"}, p.section)))), shared="some"))
    art.append(h("header", {"class": "story-head"},
                 b.c("title", h("h1", None, p.title)),
                 b.m("byline", h("p", {"class": "byline"},
                                 h("time", {"datetime": p.date.isoformat()}, fmt_date(s.lang.code, p.date)),
                                 " · ", p.author))))
    art.append(h("div", {"class": "story-body"}, article_nodes(b, heading="h2", list_tag="ol")))
    if s.share:
        art.append(b.t("share", h("section", {"class": "share"},
                                  h("h2", None, ui["share"]),
                                  h("ul", None, [h("li", None, h("a", {"href": "#"}, n)) for n in s.social]))))
    if p.comments:
        art.append(b.pg(h("section", {"class": "comments", "id": "comments"},
                     b.t("comments-heading", h("h2", None, ui["comments"]), shared="some"),
                     [b.c("comment", h("article", {"class": "comment"},
                                       h("header", None, h("b", None, who), " ", h("time", None, when)),
                                       h("p", None, txt)))
                      for who, when, txt in p.comments])))
    main = [h("article", {"class": "story"}, art)]
    if p.related:
        main.append(b.t("related", h("section", {"class": "related"},
                                     h("h2", None, ui["related"]),
                                     h("ul", None, [h("li", None, h("a", {"href": "/r/%d" % i}, t))
                                                    for i, t in enumerate(s.related_titles)])), shared="some"))
    aside = h("aside", {"class": "rail"},
              b.t("sidebar-latest", h("section", {"class": "latest"},
                                      h("h2", None, ui["latest"]),
                                      h("ul", None, [h("li", None, h("a", {"href": "/" + u}, t), " ",
                                                       h("time", None, d)) for t, d, u in s.recent]))),
              b.t("sidebar-about", h("section", {"class": "about"},
                                     h("h2", None, ui["about_site"]),
                                     h("p", None, ui["about_text"].format(site=s.name)))))
    if p.promo:
        aside.add(b.t("promo", h("section", {"class": "promo"},
                                 h("h2", None, ui["newsletter"]), h("p", None, ui["promo"]),
                                 h("a", {"class": "cta", "href": "/subscribe"}, ui["promo_btn"])), shared="some"))
    foot = b.t("footer", h("footer", {"class": "site-foot"},
                           h("nav", {"aria-label": "Footer"},
                             h("ul", None, [h("li", None, h("a", {"href": u}, n))
                                            for n, u in footer_links(s, ui)])),
                           h("p", None, ui["follow"], ": ", [[h("a", {"href": "#"}, n), " "] for n in s.social[:3]]),
                           h("address", None, ui["contact"], ": ",
                             h("a", {"href": "mailto:desk@" + s.host}, "desk@" + s.host)),
                           h("p", {"class": "legal"}, "© %d %s. %s" % (s.year + 10, s.name, ui["rights"]))))
    body = [top, h("main", {"id": "main"}, main, aside), foot]
    if s.cookie:
        body.append(b.t("cookie", h("div", {"class": "cc-banner", "role": "dialog"},
                                    h("p", None, ui["cookie"]),
                                    h("button", {"type": "button"}, ui["accept"]))))
    meta = [h("meta", {"charset": "utf-8"}), h("meta", {"name": "viewport", "content": "width=device-width"})]
    return h("html", {"lang": s.lang.code}, head(s, p, CSS_HTML5, meta), h("body", None, body)), "<!doctype html>"


# Style 3: a documentation portal: top bar, chapter tree, prev/next links.
CSS_DOCS = ".wy-nav-side{position:fixed}.document{margin-left:300px}pre{background:#eee}"


def style_docs(b):
    s, p, ui = b.site, b.page, b.site.lang.ui
    topbar = h("div", {"class": "topbar"},
               b.t("header", h("div", {"class": "project"},
                               h("a", {"class": "icon-home", "href": "/docs/"}, s.name), " ",
                               h("span", {"class": "version"}, "%s %d.%d" % (ui["version"], s.index + 1, s.year % 10)),
                               h("div", {"class": "tagline"}, s.tagline))),
               b.t("search", h("form", {"class": "search", "action": "/search.html"},
                               h("input", {"type": "text", "name": "q", "placeholder": ui["search"]}),
                               h("input", {"type": "submit", "value": ui["go"]}))))
    toc = h("div", {"class": "sphinxsidebar", "role": "navigation"},
            b.t("nav", h("div", {"class": "sphinxsidebarwrapper"},
                         h("h3", None, ui["toc"]),
                         h("ul", {"class": "toctree"},
                           [h("li", {"class": "toctree-l1"}, h("a", {"href": "/docs/ch%d.html" % i}, c))
                            for i, c in enumerate(s.doc_chapters)]),
                         h("h3", None, ui["links"]),
                         h("ul", None, [h("li", None, nav_link(s, i, "/%d/" % i, label, p))
                                        for i, label in enumerate(s.nav)]))),
            b.t("sidebar-about", h("div", {"class": "sidebar-about"},
                                   h("h3", None, ui["about_site"]),
                                   h("p", None, ui["about_text"].format(site=s.name)))))
    content = []
    if s.breadcrumb:
        content.append(b.t("breadcrumb", h("div", {"class": "breadcrumbs", "role": "navigation"},
                                           h("a", {"href": "/docs/"}, ui["home_crumb"]), " » ",
                                           h("a", {"href": "/docs/x.html"}, s.doc_chapters[p.index %
                                                                                           len(s.doc_chapters)])),
                                  shared="some"))
    section = h("div", {"class": "section", "id": "s-%d" % p.index},
                b.c("title", h("h1", None, p.title)), article_nodes(b, heading="h2"))
    content.append(h("div", {"class": "body", "role": "main"}, section))
    if p.promo:
        content.append(b.t("promo", h("div", {"class": "admonition note"},
                                      h("p", {"class": "admonition-title"}, ui["note"]),
                                      h("p", None, ui["promo"])), shared="some"))
    if p.related:
        content.append(b.t("related", h("div", {"class": "seealso"},
                                        h("p", {"class": "admonition-title"}, ui["related"]),
                                        h("ul", None, [h("li", None, h("a", {"href": "/docs/r%d.html" % i}, t))
                                                       for i, t in enumerate(s.related_titles)])), shared="some"))
    pages = s.pages
    links = []
    if getattr(p, "is_section", False):
        pass
    elif p.index > 0:
        links.append(h("a", {"class": "prev", "href": site_link(s, pages[p.index - 1])},
                       "« " + ui["prev"] + ": " + pages[p.index - 1].title))
    if not getattr(p, "is_section", False) and p.index + 1 < len(pages):
        links.append(h("a", {"class": "next", "href": site_link(s, pages[p.index + 1])},
                       ui["next"] + ": " + pages[p.index + 1].title + " »"))
    if links:
        content.append(b.m("prev-next", h("div", {"class": "rst-footer-buttons"}, links)))
    if p.comments:
        content.append(b.pg(h("div", {"class": "discussion"},
                         b.t("comments-heading", h("h2", None, ui["comments"]), shared="some"),
                         h("dl", None, [[b.m("comment-meta", h("dt", None, who + " · " + when)),
                                         b.c("comment", h("dd", None, txt))]
                                        for who, when, txt in p.comments]))))
    foot = b.t("footer", h("div", {"class": "footer", "role": "contentinfo"},
                           "© %s %d. " % (s.name, s.year), ui["powered"].format(engine=s.engine), " ",
                           h("a", {"href": "/docs/_sources/"}, ui["edit"]), " · ",
                           h("a", {"href": "/sitemap"}, ui["sitemap"])))
    extras = []
    if s.share:
        extras.append(b.t("share", h("div", {"class": "social"}, ui["follow"], ": ",
                                     [[h("a", {"href": "#"}, n), " "] for n in s.social])))
    if s.cookie:
        extras.append(b.t("cookie", h("div", {"id": "consent"}, ui["cookie"], " ",
                                      h("button", None, ui["accept"]))))
    body = h("body", {"class": "wy-body-for-nav"}, topbar,
             h("div", {"class": "document"}, h("div", {"class": "documentwrapper"}, content)), toc, foot, extras)
    meta = h("meta", {"charset": "utf-8"})
    return h("html", {"lang": s.lang.code}, head(s, p, CSS_DOCS, meta), body), "<!DOCTYPE html>"


STYLES = [("table", style_table), ("div", style_div), ("html5", style_html5), ("docs", style_docs)]


def render(site, page):
    b = Builder(site, page)
    style = site.style
    if getattr(page, "is_section", False) and getattr(site, "links", None) == "foreign":
        style = (style + 1) % len(STYLES)
    root, doctype = STYLES[style][1](b)
    out = [doctype]
    serialize(root, out)
    html = "".join(out).replace("\n\n", "\n") + "\n"
    paths, order = element_paths(root)
    regions = []
    # Styles register regions in build order; the truth lists them in
    # document order, like tbk's blocks.
    for role, kind, shared, el in sorted(b.regions, key=lambda reg: order[id(reg[3])]):
        text = text_of(el)
        if not text:  # e.g. a search form of inputs only: no text to label
            continue
        regions.append({"role": role, "kind": kind, "shared": shared, "tag": el.tag,
                        "path": paths[id(el)], "text": text})
    if getattr(site, "links", None) is None:
        return html, regions
    return html, regions, template_nodes(root, b, paths)


# Template regions a page may lack (the related box, the promo, the comments'
# heading): not part of the template every page shares.
OPTIONAL_KINDS = {"related", "promo", "comments-heading"}


def template_nodes(root, b, paths):
    """The node-level gold (--links): every element tbk's page model holds
    (none under a DROP tag), in document order, as (xpath, tag, template).
    An element is template unless it is in a content or meta region, an
    optional template region, or a page-only wrapper (Builder.pg)."""
    out_ids = set()

    def mark(el):
        stack = [el]
        while stack:
            n = stack.pop()
            out_ids.add(id(n))
            stack.extend(k for k in n.kids if isinstance(k, E))
    for role, kind, shared, el in b.regions:
        if role != "template" or kind in OPTIONAL_KINDS:
            mark(el)
    for el in b.page_only:
        mark(el)
    rows = []
    stack = [root]
    while stack:
        n = stack.pop()
        if n.tag in DROP:
            continue
        rows.append((paths[id(n)], n.tag, 0 if id(n) in out_ids else 1))
        stack.extend(reversed([k for k in n.kids if isinstance(k, E)]))
    return rows


# ----------------------------------------------------------------- output
def warc_record(headers, block):
    head = "WARC/1.0\r\n" + "".join("%s: %s\r\n" % kv for kv in headers)
    head += "Content-Length: %d\r\n\r\n" % len(block)
    return head.encode("utf-8") + block + b"\r\n\r\n"


def sha1_b32(data):
    return "sha1:" + base64.b32encode(hashlib.sha1(data).digest()).decode("ascii")


def write_warc(path, items, seed):
    """items: (url, html bytes, date) per page. One gzip member per record
    when the name ends in .gz, as WARC readers expect for random access."""
    gz = path.endswith(".gz")
    recs = []
    info = ("software: tbk datasets/synth_sites.py\r\nformat: WARC File Format 1.0\r\n"
            "description: synthetic sites, seed %d\r\n" % seed).encode("utf-8")
    t0 = datetime(2023, 1, 1, tzinfo=timezone.utc)
    recs.append(warc_record([("WARC-Type", "warcinfo"),
                             ("WARC-Date", t0.strftime("%Y-%m-%dT%H:%M:%SZ")),
                             ("WARC-Filename", os.path.basename(path)),
                             ("WARC-Record-ID", "<urn:uuid:%s>" % uuid.uuid5(uuid.NAMESPACE_URL, "warcinfo:%d" % seed)),
                             ("Content-Type", "application/warc-fields")], info))
    for url, body, d in items:
        http = ("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
                "Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body)).encode("ascii") + body
        when = datetime(d.year, d.month, d.day, 12, 0, 0, tzinfo=timezone.utc)
        recs.append(warc_record([("WARC-Type", "response"),
                                 ("WARC-Record-ID", "<urn:uuid:%s>" % uuid.uuid5(uuid.NAMESPACE_URL, "%d:%s" % (seed, url))),
                                 ("WARC-Date", when.strftime("%Y-%m-%dT%H:%M:%SZ")),
                                 ("WARC-Target-URI", url),
                                 ("WARC-Payload-Digest", sha1_b32(body)),
                                 ("WARC-Block-Digest", sha1_b32(http)),
                                 ("Content-Type", "application/http; msgtype=response")], http))
    with open(path, "wb") as f:
        for rec in recs:
            f.write(gzip.compress(rec, compresslevel=6, mtime=0) if gz else rec)


README = """# synthetic sites (generated by datasets/synth_sites.py)

Parameters: seed {seed}, {sites} sites x {pages} pages, template style {style}.
Everything here is generated; regenerate with
`python3 datasets/synth_sites.py --out DIR --sites {sites} --pages {pages} --seed {seed}{style_arg}`.

| site | language | style | name |
|---|---|---|---|
{rows}

- `manifest.tsv`: `site page url gold` (site key = host without `.example`).
- `pages/<site>/<id>.html`: UTF-8 pages; ids and URLs of non-English sites are Unicode.
- `gold/<site>/<id>.txt`: the article (title, paragraphs, headings, list items, table rows,
  code), one block per line; `<id>.comments.txt`: the user comments, one per line.
- `truth.jsonl`: per page `site`, `page`, `url`, `style`, `lang`, `template` (texts of the
  template regions present on the page), `content` (texts of the content regions), and
  `regions`: every region with `role` (template / content / meta), `kind`, `shared`
  (`all`: same text on every page of the site; `some`: same text on some pages, e.g. the
  related box and the promo; `page`: differs per page), `tag`, `path` (element locator like
  tbk's, `/html[1]/body[1]/div[2]`, index among same-tag siblings) and `text`. Texts are
  normalized: whitespace collapsed and trimmed, block elements separated by one space, text
  of script/style/head dropped. `meta` regions (bylines, comment counts, prev/next links)
  are page-specific navigation, neither template nor article.
"""

README_LINKS = """<!-- --links {links} -->
With `--links {links}` every site also has one section page per menu section
(`section/NN/`, in the site's template; `missing`: not written, so the menu leads
out of the crawl; `dynamic`: written, but the menu's links are `href="#"` with
a JavaScript call; `foreign`: written in the next template style, so the
pages the menu links to do not share the articles' template), and `nodes.jsonl` holds the node-level gold template: one
line per element of each page that tbk's page model holds (nothing under head,
script, style...), in document order: `site`, `page`, `xpath`, `tag`, `template`
(1: made by the site's template and on every page; 0: in the article, a
byline, the comments, the related box or promo, or a wrapper of those only).

"""


def main(argv=None):
    ap = argparse.ArgumentParser(description="Generate synthetic multi-page sites with known "
                                             "template and content regions.")
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--sites", type=int, default=6, help="number of sites (default 6)")
    ap.add_argument("--pages", type=int, default=30, help="pages per site (default 30)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--template-style", type=int, default=None, metavar="K",
                    help="use style K for every site (0 table, 1 div, 2 html5, 3 docs); "
                         "default: site i uses style i %% 4")
    ap.add_argument("--manifest", action="store_true",
                    help="print the path of the written manifest.tsv on stdout")
    ap.add_argument("--warc", metavar="FILE", help="also write all pages as WARC/1.0 (.warc or .warc.gz)")
    ap.add_argument("--links", choices=["menu", "missing", "dynamic", "foreign"],
                    help="menus that link to section pages (one per menu section, in the template), "
                         "and the node-level gold template in nodes.jsonl: menu (the section pages are "
                         "written), missing (they are not: the menu leads out of the crawl), dynamic "
                         "(written, but the menu's links are JavaScript calls), foreign (written in "
                         "another template style)")
    ap.add_argument("--mark-current", action="store_true",
                    help="with --links: each section page marks its own menu entry, as sites do "
                         "(class=\"active\" aria-current=\"page\" on its link); the gold is the same")
    args = ap.parse_args(argv)
    if args.mark_current and not args.links:
        ap.error("--mark-current needs --links")
    if args.sites < 1 or args.pages < 1:
        ap.error("--sites and --pages must be >= 1")
    if args.template_style is not None and not 0 <= args.template_style < len(STYLES):
        ap.error("--template-style must be 0..%d" % (len(STYLES) - 1))

    langs = {code: Lang(code) for code in LANGS}
    sites = []
    keys = set()
    for i in range(args.sites):
        s = make_site(i, args, langs)
        while s.key in keys:  # distinct hosts even if two draws collide
            s.key += "-%d" % i
            s.host = s.key + ".example"
            for p in s.pages:
                p.url = "http://%s/%s" % (s.host, urllib.parse.quote(p.urlpath, safe="/?=&"))
        keys.add(s.key)
        if args.links:
            s.links = args.links
            s.section_pages = make_section_pages(s, args)
            s.mark_current = args.mark_current
        sites.append(s)

    out = args.out
    try:
        os.makedirs(out, exist_ok=True)
        for sub in ("pages", "gold"):
            shutil.rmtree(os.path.join(out, sub), ignore_errors=True)
        manifest, truth, warc_items, nodes = [], [], [], []
        for s in sites:
            os.makedirs(os.path.join(out, "pages", s.key))
            os.makedirs(os.path.join(out, "gold", s.key))
            written = s.pages + (s.section_pages if args.links not in (None, "missing") else [])
            for p in written:
                rendered = render(s, p)
                html, regions = rendered[0], rendered[1]
                data = html.encode("utf-8")
                page_rel = "pages/%s/%s.html" % (s.key, p.id)
                gold_rel = "gold/%s/%s.txt" % (s.key, p.id)
                with open(os.path.join(out, page_rel), "wb") as f:
                    f.write(data)
                article = [r["text"] for r in regions if r["role"] == "content" and r["kind"] != "comment"]
                comments = [r["text"] for r in regions if r["kind"] == "comment"]
                with open(os.path.join(out, gold_rel), "w", encoding="utf-8", newline="\n") as f:
                    f.write("\n".join(article) + "\n")
                if comments:
                    with open(os.path.join(out, "gold", s.key, p.id + ".comments.txt"), "w",
                              encoding="utf-8", newline="\n") as f:
                        f.write("\n".join(comments) + "\n")
                manifest.append((s.key, page_rel, p.url, gold_rel))
                truth.append((s.key, page_rel, json.dumps({
                    "site": s.key, "page": page_rel, "url": p.url, "style": STYLES[s.style][0],
                    "lang": s.lang.code,
                    "template": [r["text"] for r in regions if r["role"] == "template"],
                    "content": [r["text"] for r in regions if r["role"] == "content"],
                    "regions": regions}, ensure_ascii=False, sort_keys=True)))
                warc_items.append((p.url, data, p.date))
                if args.links:
                    nodes.append((page_rel, [json.dumps({"site": s.key, "page": page_rel, "xpath": x, "tag": t,
                                                         "template": f}, ensure_ascii=False)
                                             for x, t, f in rendered[2]]))
        manifest.sort()
        with open(os.path.join(out, "manifest.tsv"), "w", encoding="utf-8", newline="\n") as f:
            f.write("site\tpage\turl\tgold\n")
            for row in manifest:
                f.write("\t".join(row) + "\n")
        truth.sort()
        with open(os.path.join(out, "truth.jsonl"), "w", encoding="utf-8", newline="\n") as f:
            for _, _, line in truth:
                f.write(line + "\n")
        if args.links:
            nodes.sort(key=lambda it: it[0])
            with open(os.path.join(out, "nodes.jsonl"), "w", encoding="utf-8", newline="\n") as f:
                for _, lines in nodes:
                    f.write("".join(line + "\n" for line in lines))
        rows = "\n".join("| %s | %s | %d %s | %s |" % (s.key, s.lang.code, s.style, STYLES[s.style][0], s.name)
                         for s in sites)
        with open(os.path.join(out, "README.md"), "w", encoding="utf-8", newline="\n") as f:
            if args.links:
                f.write(README_LINKS.format(links=args.links))
            f.write(README.format(seed=args.seed, sites=args.sites, pages=args.pages,
                                  style="mixed (site i: i % 4)" if args.template_style is None
                                  else args.template_style,
                                  style_arg="" if args.template_style is None
                                  else " --template-style %d" % args.template_style, rows=rows))
        if args.warc:
            warc_items.sort(key=lambda it: it[0])
            write_warc(args.warc, warc_items, args.seed)
    except OSError as e:
        print("synth_sites.py: %s" % e, file=sys.stderr)
        return 1
    if args.manifest:
        print(os.path.join(out, "manifest.tsv"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
