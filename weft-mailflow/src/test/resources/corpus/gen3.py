import json, datetime
ROOMS=[("Garden",150),("Hall",200),("Salon",40),("Terrace",80)]
BOOKED={("Hall","2026-12-12"),("Garden","2026-06-12"),("Terrace","2026-05-16"),("Salon","2026-04-18"),("Garden","2026-07-04"),("Hall","2026-07-04")}
rows=[]
def r(lang, text, dates, guests, inquiry=True, mode="any"):
    q = inquiry and (not dates or guests is None)
    row={"lang":lang,"subject":"","text":text,"fromName":"","dates":dates,"guests":guests,"inquiry":inquiry,"question":q}
    if inquiry and dates and guests is not None:
        options=[dates] if mode=="all" else [[d] for d in dates]
        offered=[]
        for name,cap in ROOMS:
            if cap<guests: continue
            if any(all((name,d) not in BOOKED for d in opt) for opt in options):
                offered.append(name)
        row["offered"]=offered
    rows.append(row)
# third batch, written before running the agent on it
r("en","Can I book the Salon for Sat the 21st? 35 guests.",["2026-03-21"],35)
r("en","We're hoping to get married on the 3rd of July next year.",["2027-07-03"],None)
r("en","Looking for availability Friday 10/16 for 90 ppl",["2026-10-16"],90)
r("en","Could we do Nov 14th? Party of twenty-five.",["2026-11-14"],25)
r("en","Our annual gala is on 2026-11-28 and last year we had 160 guests; we expect similar numbers.",["2026-11-28"],160)
r("en","Hi, checking if you're free on the evening of May 8th for a rehearsal dinner (45 people).",["2026-05-08"],45)
r("en","Is 1st August available? 110 guests, wedding.",["2026-08-01"],110)
r("en","Do you have any openings on Sept 5 or Sept 6 for roughly 70 guests?",["2026-09-05","2026-09-06"],70)
r("en","we want to host a kids birthday party (about 20 children) on Sunday",["2026-03-08"],20)
r("en","Please let me know your rates for a corporate event for 80 on the 9th of December.",["2026-12-09"],80)
r("en","Hello, I'm inquiring on behalf of my company about a holiday party for ~100 employees on Dec 18 or Dec 19.",["2026-12-18","2026-12-19"],100)
r("en","Could you host two evenings of events on 11 and 12 September, 60 guests each night?",["2026-09-11","2026-09-12"],60,mode="all")
r("en","Hi - any availability for a 50th birthday next month? Around 40 guests.",[],40)
r("en","I'd like to book your venue for March 31st. There will be eighteen of us.",["2026-03-31"],18)
r("en","My wife and I want to renew our vows on Valentine's Day 2027 with about 60 guests.",["2027-02-14"],60)
r("en","Our spring menu is out! Read the newsletter. Unsubscribe here.",[],None,inquiry=False)
r("en","Thanks for your reply. We'll go with the Garden then. Dana",[],None,inquiry=False)
r("en","Please find attached our signed contract.",[],None,inquiry=False)
r("en","Hi! We're a book club of 12 looking for a private room on Wednesday, April 15 in the evening.",["2026-04-15"],12)
r("en","Can you accommodate a conference from October 5 to October 7? 150 attendees.",["2026-10-05","2026-10-06","2026-10-07"],150,mode="all")
r("he","מחפשים זמינות ליום שישי 16.10 ל-90 איש",["2026-10-16"],90)
r("he","רוצים להתחתן ב-3 ביולי 2027",["2027-07-03"],None)
r("he","האם ה-14 בנובמבר פנוי? מסיבה לעשרים וחמישה איש.",["2026-11-14"],25)
r("he","ערב הגאלה השנתי שלנו ב-28.11.2026, בשנה שעברה היו 160 אורחים.",["2026-11-28"],160)
r("he","יש לכם זמינות ב-5 או ב-6 בספטמבר לבערך 70 אורחים?",["2026-09-05","2026-09-06"],70)
r("he","רוצים לעשות מסיבת יום הולדת לילדים (כ-20 ילדים) ביום ראשון",["2026-03-08"],20)
r("he","מה המחירים לאירוע חברה ל-80 עובדים ב-9 בדצמבר?",["2026-12-09"],80)
r("he","אפשר לקיים אצלכם אירוע בשני ערבים, 11 ו-12 בספטמבר, 60 איש בכל ערב?",["2026-09-11","2026-09-12"],60,mode="all")
r("he","יום הולדת 50 בחודש הבא, בערך 40 אורחים. יש מקום?",[],40)
r("he","אני רוצה להזמין את המקום ל-31 במרץ. נהיה שמונה עשר.",["2026-03-31"],18)
r("he","תודה על התשובה, נלך על הגן. דנה",[],None,inquiry=False)
r("he","מצורף החוזה החתום.",[],None,inquiry=False)
r("he","מועדון הספר שלנו, 12 חברות, מחפש חדר פרטי ביום רביעי 15 באפריל בערב.",["2026-04-15"],12)
r("he","אפשר לארח כנס מ-5 עד 7 באוקטובר? 150 משתתפים.",["2026-10-05","2026-10-06","2026-10-07"],150,mode="all")
r("he","שלום, נשמח לחגוג בר מצווה ב-1 באוגוסט עם 110 אורחים.",["2026-08-01"],110)
r("he","ערב גיבוש לצוות של 30 איש ביום חמישי הקרוב, אפשרי?",["2026-03-05"],30)
with open("inquiries-3.jsonl","w") as f:
    for row in rows: f.write(json.dumps(row, ensure_ascii=False)+"\n")
for d in ["2026-03-21","2027-07-03","2026-10-16","2026-11-14","2026-11-28","2026-05-08","2026-08-01","2026-09-05","2026-03-08","2026-12-09","2026-12-18","2026-09-11","2026-03-31","2027-02-14","2026-04-15","2026-10-05","2026-03-05"]:
    print(d, datetime.date.fromisoformat(d).strftime('%a'), end="; ")
print(len(rows))
