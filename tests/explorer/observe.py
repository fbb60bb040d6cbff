"""Open an olmsat explorer page in headless Chromium and report what it shows.

Usage: observe.py PAGE OUT.json [--pairs] [--screenshot PNG --select NAME]

For every version of every lane it clicks the version (a real click) and
records the answer the page shows: the text, the highlighted steps (from the
DOM) and the nodes and edges marked on the drawing. With --pairs it also asks
the page for the shortest path between every pair of versions of each lane
(and clicks a few pairs). The first version of the first lane is also chosen
with the keyboard (Tab focus, Enter). The time from navigation to the page
being interactive is in "readyMs". Exit 2 when Chromium or its driver is
missing.
"""
import json
import shutil
import sys

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
except ImportError:
    print("selenium not found", file=sys.stderr)
    sys.exit(2)


def find_binary(names):
    for n in names:
        p = shutil.which(n)
        if p:
            return p
    return None


def main():
    args = sys.argv[1:]
    page, out = args[0], args[1]
    pairs = "--pairs" in args
    shot = args[args.index("--screenshot") + 1] if "--screenshot" in args else None
    select = args[args.index("--select") + 1] if "--select" in args else None
    chrome = find_binary(["chromium", "chromium-browser", "google-chrome"])
    driver_bin = find_binary(["chromedriver"])
    if not chrome or not driver_bin:
        print("chromium not found", file=sys.stderr)
        sys.exit(2)
    opts = Options()
    opts.binary_location = chrome
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu",
              "--disable-dev-shm-usage", "--window-size=1920,1080",
              "--hide-scrollbars", "--force-device-scale-factor=1"]:
        opts.add_argument(a)
    driver = webdriver.Chrome(service=Service(driver_bin), options=opts)
    try:
        driver.get("file://" + page)
        ready = driver.execute_script("return document.documentElement.dataset.ready")
        result = {"readyMs": int(ready) if ready else None, "lanes": []}
        lanes = [] if "--ready-only" in args else driver.find_elements(By.CSS_SELECTOR, ".lane")
        for li, lane in enumerate(lanes):
            p, c = lane.get_attribute("data-p"), lane.get_attribute("data-c")
            info = driver.execute_script(
                "var ch = olmsatExplorer.data.packages[arguments[0]].channels[arguments[1]];"
                "return [olmsatExplorer.data.packages[arguments[0]].name, ch.name,"
                " ch.nodes.map(function (n) { return n.name; })];", int(p), int(c))
            record = {"package": info[0], "channel": info[1], "nodes": []}
            for i, name in enumerate(info[2]):
                el = lane.find_element(By.CSS_SELECTOR, '.n[data-n="%d"]' % i)
                driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'});", el)
                driver.find_element(By.ID, "clear").click() if i == 0 else None
                el.click()
                record["nodes"].append(read_answer(driver, name))
                driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
            if li == 0 and info[2]:
                # The keyboard: focus the first version, press Enter.
                el = lane.find_element(By.CSS_SELECTOR, '.n[data-n="0"]')
                driver.execute_script("arguments[0].focus();", el)
                driver.switch_to.active_element.send_keys(Keys.ENTER)
                result["keyboard"] = read_answer(driver, info[2][0])
                driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
            if pairs:
                n = len(info[2])
                record["pairs"] = driver.execute_script(
                    "var out = [];"
                    "for (var s = 0; s < arguments[2]; s++) for (var t = 0; t < arguments[2]; t++) {"
                    "  var a = olmsatExplorer.shortest(arguments[0], arguments[1], s, t);"
                    "  a.from = s; a.to = t; out.push(a); }"
                    "return out;", int(p), int(c), n)
                clicked = []
                for s, t in [(0, n - 1), (n - 1, 0)] if n > 1 else []:
                    for k in (s, t):
                        el = lane.find_element(By.CSS_SELECTOR, '.n[data-n="%d"]' % k)
                        driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'});", el)
                        el.click()
                    a = read_answer(driver, info[2][s])
                    a["to"] = info[2][t]
                    clicked.append(a)
                    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
                record["clickedPairs"] = clicked
            result["lanes"].append(record)
        if shot:
            if select:
                el = driver.find_element(By.CSS_SELECTOR, '.n[aria-label^="%s "]' % select)
                el.click()
            driver.execute_script("window.scrollTo(0, 0);")
            height = driver.execute_script("return Math.min(document.body.scrollHeight, 1400);")
            driver.set_window_size(1920, height)
            driver.save_screenshot(shot)
        with open(out, "w") as f:
            json.dump(result, f)
    finally:
        driver.quit()


def read_answer(driver, name):
    return driver.execute_script(
        "var a = document.getElementById('answer-text');"
        "return {name: arguments[0], mode: a.dataset.mode || null, text: a.textContent,"
        " end: a.dataset.end || null, reachesHead: a.dataset.reachesHead || null,"
        " steps: Array.from(document.querySelectorAll('#steps li')).map(function (li) {"
        "   return [li.dataset.from, li.dataset.to, li.dataset.via]; }),"
        " marked: Array.from(document.querySelectorAll('.lane .e.hl')).length,"
        " markedNodes: Array.from(document.querySelectorAll('.lane .n.hl')).map(function (n) {"
        "   return +n.dataset.n; })};", name)


if __name__ == "__main__":
    main()
