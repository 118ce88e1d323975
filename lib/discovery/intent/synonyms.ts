// Everyday wording -> registry vocabulary. Agents rarely use the catalogue's words ("umbrella" for a forecast,
// "how far" for a distance), so each entry adds weighted alternative terms to the query words it covers.
//
// Format: "key|key two|...": "term[:weight] ..." (weight defaults to 0.8; "a_b" is the bigram "a b").
// A leading "=" on the value drops the literal words, for phrases whose words mislead on their own ("share price").
// A leading "~" marks a modifier ("right now", "cheap"): it helps pick between siblings, but a capability that
// does not mention it still serves the need, so it counts less towards coverage.
// Keys are matched on lowercase surface words before stop words are removed, longest phrase first.

const RAW: Record<string, string> = {
  // --- time: the tense of a need often picks between sibling capabilities
  "now|right now|currently|at the moment|presently|at present|live|real time|realtime|this minute|as we speak": "~now:0.7 current:0.7",
  "today|tonight|this morning": "~now:0.3 current:0.3 tomorrow:0.3",
  "next|coming|upcoming|soon|later|future|ahead": "~tomorrow:0.5 upcoming:0.6",
  "tomorrow|tmrw|weekend|this weekend|next week|next few days|coming days|upcoming days|later today|this afternoon|this evening|next days|in two days|in 3 days|the week ahead|outlook|going to|gonna|will it|will there be|expected to": "~tomorrow:0.8 forecast:0.5 upcoming:0.5",
  "yesterday|last night|last year|last month|last week|last summer|last winter|years ago|days ago|in the past|previous|previously|back in|historic|historical|history": "~past:0.7 history:0.7 historical:0.7",
  "what was|how was|what were|how much did|was it": "~past:0.6 historical:0.6",
  "january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|monday|tuesday|wednesday|thursday|friday|saturday|sunday|date|dates|day|days|week|weeks|month|months|year|years": "~date:0.5",

  "latest|recent|recently|newest|new|up to date|up-to-date": "~now:0.4 current:0.4 recent:0.6 latest:0.6",

  // --- weather
  "umbrella|raincoat|brolly|rain jacket|wellies": "rain:0.8 forecast:0.6",
  "rainy|raining|rainfall|drizzle|shower|showers|downpour|precip|precipitation|wet": "rain:0.9 precipitation:0.8",
  "snowing|snowfall|snowy|sleet|hail|frost": "snow:0.9 weather:0.5",
  "sunny|sunshine|cloudy|overcast|foggy|fog|clear skies|weather like|humid|muggy": "weather:0.7 conditions:0.6",
  "hot|cold|warm|chilly|freezing|heat|temp|temps|celsius|fahrenheit|degrees|thermometer": "temperature:0.8",
  "windy|gust|gusts|breeze|wind speed": "wind:0.9",
  "storm|storms|thunderstorm|hurricane|tornado|typhoon|cyclone|flood|floods|flooding|blizzard|heatwave|heat wave|wildfire|tsunami": "storm:0.8 alert:0.6 warning:0.6",
  "advisory|advisories|watch|watches|emergency|evacuation|red warning|amber warning": "warning:0.6 alert:0.6 vulnerability:0.3",
  "smog|haze|hazy|pollutant|pollutants|pollution|polluted|smoke|smoky|particulates|particles|air safe": "pollution:0.9 air_quality:0.8",
  "pollen|allergy|allergies|breathe|breathing|asthma": "air_quality:0.6 pollution:0.5",

  // --- geo and maps
  "lat|latitude|longitude|lng|gps|coords|geo coordinates|geolocation": "coordinates:0.8 lat:0.8",
  "where is|located|location|whereabouts|position": "location:0.6",
  "postcode|post code|zip code|zipcode|street|postal address": "address:0.8",
  "town|city|village|neighborhood|neighbourhood|suburb|district|county": "city:0.5 place:0.5",
  "sea level|altitude|how high|above sea|height|mountain|summit|peak|terrain": "elevation:0.8",
  "how far|far|distance|distances|km|kms|kilometers|kilometres|miles|mileage": "distance:0.9",
  "how long does it take|how long to|travel time|commute|eta|duration|durations|drive time": "duration:0.8 travel_time:0.7",
  "fastest|quickest|shortest|get from|get to|how do i get|how to get|way to|route to|go to|directions to|navigate|navigation|sat nav|satnav|itinerary": "directions:0.8 route:0.7",
  "driving|drive|by car|car route": "car:0.6 route:0.5",
  "walking|on foot|walk to|by foot|walkable": "foot:0.7 route:0.5",
  "bike|bicycle|cycling|cycle|by bike": "bike:0.9 route:0.4",
  "metro|subway|tube|train|bus|tram|public transport|public transit|transit|rail|underground": "transit:0.8 route:0.4",
  "nearby|near me|near|around|close to|closest|nearest|around here|in the area|within walking distance": "~nearby:0.7 near:0.5",
  "sushi|pizza|pizzeria|burger|burgers|tacos|ramen|brunch|breakfast|lunch|dinner|food|eat|restaurant|restaurants|cafe|cafes|coffee shop|coffee shops|bar|bars|pub|pubs|pharmacy|pharmacies|hospital|hospitals|atm|atms|gas station|petrol station|supermarket|supermarkets|grocery|museum|museums|dentist|dentists|clinic|clinics|bakery|bakeries|parking|gym|gyms|store|stores|shop|shops|venue|venues": "places:0.8 poi:0.6 restaurants:0.4",
  "pin|pins|marker|markers|pinned location": "markers:0.6 pin:0.5",
  "map|maps|mapping": "map:1",

  // --- search
  "top results|top hits|search results|first page of results|results for|ranked results": "=search:0.8 web:0.6 google:0.5",
  "google|googling|bing|duckduckgo|search engine|search engines|on the internet|the internet|internet|online|on the web|the web": "web:0.8 search:0.5 google:0.6",
  "headline|headlines|breaking|press|journalism|newspaper|reporting|coverage|news stories|current events": "news:0.9",
  "article|articles": "articles:1 news:0.4",
  "picture|pictures|pic|pics|imagery|wallpaper|wallpapers": "pictures:0.9 image:0.7",
  "photo|photos|photograph|photographs|snapshot|jpeg|jpg|png|gif|webp|heic": "photo:0.9 image:0.7",
  "study|studies|research|journal|journals|scholarly|scholar|scientific|peer reviewed|peer-reviewed|thesis|theses|publication|publications|preprint|preprints|arxiv|pubmed|doi|literature": "papers:0.9 academic:0.8",
  "invention|inventions|prior art|patented|patentable|uspto|trademark": "patent:0.9",

  // --- web
  "website|websites|site|sites|webpage|webpages|web page|web pages|homepage|landing page": "page:0.8 website:0.6",
  "page|pages": "page:0.6 website:0.3",
  "link|links|hyperlink|hyperlinks": "link:1 url:0.7",
  "download|downloading|retrieve|fetch|pull down": "fetch:0.6 download:0.6",
  "markup|page source|source of the page|dom": "html:0.8",
  "scraper|scraping|scrape|scrapes|harvest": "scrape:1",
  "screengrab|screen grab|screen shot|screen capture|screencap|capture": "screenshot:0.8 capture:0.8",
  "spider|spidering|crawler|crawling|every page|all pages|whole site|entire site|every url|all urls|site map|sitemap": "crawl:0.9",
  "readable|reader mode|reader view|main text|article body|no ads|ads|clutter|boilerplate|byline|publish date|publication date": "readability:0.8 article:0.6",
  "print|printable|save as pdf|export as pdf": "print:0.8 pdf:0.4",

  // --- language models
  "ask|question|questions|answer|answers|reply|chatbot|bot|conversation|converse|prompt|prompts|respond": "chat:0.7 llm:0.4",
  "gpt|gpt4|gpt-4|chatgpt|claude|gemini|llama|mistral|language model|language models|llm|llms|ai model|foundation model|completion|completions": "llm:0.9 chat:0.6",
  "vector|vectors|vectorize|vectorise|vectorizing|embedding|embeddings|embed|semantic|similarity|similar|nearest neighbor|rag": "embedding:0.9 vectors:0.8",
  "summary|summaries|summarize|summarise|summarizing|sum up|gist|overview|tldr|digest|condense|key points|main points|highlights|brief|recap|shorter version|shorter|abridge": "summarize:0.9 summary:0.8",
  "sentiment|positive|negative|tone|mood|opinion|emotion|emotions|feeling": "sentiment:0.9",
  "categorize|categorise|categorizing|classify|classifying|classification|label|labels|labeling|labelling|tag|tagging|topic|topics|bucket|triage|route tickets": "classify:0.8 labels:0.6",
  "json|schema|structured|key value|key-value|fields|entities|entity": "json:0.7 structured:0.7 fields:0.5",
  "toxic|toxicity|offensive|hate|hateful|abusive|abuse language|slur|slurs|nsfw|obscene|profanity|swear|swearing|harassment|bullying|inappropriate|explicit": "moderation:0.9 toxicity:0.7 safety:0.5",

  // --- image
  "draw|drawing|paint|painting|sketch|illustrate|illustration|artwork|art|cartoon|logo|poster|render an image|ai art|dall-e|dalle|midjourney|stable diffusion": "generate:0.5 art:0.8 image:0.5",
  "photoshop|retouch|retouching|inpaint|inpainting|outpaint|touch up|modify the image|edit the photo": "edit:0.8 image:0.5",
  "bigger|larger|enlarge|higher res|hi res|hires|high resolution|hd|4k|8k|sharper|sharpen|blurry|pixelated|low res|lowres|low quality|resolution": "upscale:0.8 resolution:0.7",
  "transparent|cutout|cut out|no background|backdrop|bg|background": "background:0.9 transparent:0.6",
  "describe|description|caption|captions|alt text|alt tag|what is in|what is shown|what does it show|explain image": "describe:0.8 caption:0.8",
  "words|written|lettering|writing on|printed words": "text:0.6 ocr:0.3",
  "ocr|text recognition|handwritten|handwriting|scanned|scan|scans|scanner|printed text|typed text|words in|words on": "ocr:0.8 scan:0.6",
  "detect|detection|locate|find objects|count|counting|how many people|bounding box|bounding boxes|boxes|spot|identify objects": "detect:0.6 objects:0.5",

  // --- audio and video
  "transcript|transcripts|transcribe|transcription|transcribing|dictate|dictation|speech to text|voice to text|audio to text|subtitles|stt": "transcribe:0.9 speech:0.4",
  "podcast|podcasts|recording|recordings|voicemail|voice memo|voice note|interview|mp3|wav|m4a|flac|ogg|audio file": "audio:0.7 recording:0.6",
  "read aloud|read out loud|out loud|aloud|narrate|narration|narrator|voiceover|voice over|speak|spoken|pronounce|say it": "speech:0.7 tts:0.7",
  "song|songs|music|tune|tunes|beat|beats|melody|jingle|soundtrack|instrumental|lofi|lo-fi|track": "music:0.9",
  "clone|cloning|mimic|imitate|impersonate|sound like|sounds like|deepfake|replicate": "clone:0.8 voice:0.4",
  "clip|clips|movie|movies|footage|film|animation|animate|animated|gif": "video:0.7",
  "youtube|vimeo|webinar|lecture|livestream|stream|zoom recording|screencast|talk video": "video:0.7",
  "mov|avi|mkv|webm|h264|h265|hevc|720p|1080p|480p|2160p|framerate|fps|codec": "video:0.6 format:0.5",
  "compress|compression|shrink|smaller file|reduce size|re-encode|reencode|encode|encoding": "transcode:0.7 convert:0.5",

  // --- translation
  "translate|translation|translator|translating|translated|interpret|interpreting": "translate:1",
  "how do you say|how to say|how would you say|what is the word for|word for|say in": "translate:0.9",
  "english|spanish|french|german|japanese|korean|chinese|mandarin|cantonese|arabic|russian|hindi|portuguese|italian|dutch|swedish|norwegian|danish|finnish|polish|turkish|greek|hebrew|thai|vietnamese|indonesian|ukrainian|czech|romanian|hungarian|swahili|tagalog|urdu|bengali|persian|farsi": "language:0.6 translate:0.5",
  "what language|which language|language of|written in|what lang": "detect:0.8 language:0.6",

  // --- finance
  "stock|stocks|equity|equities|securities": "stock:1",
  "share|shares|share price|shareprice|trading at|trades at": "=stock:0.9 price:0.5",
  "aapl|msft|tsla|nvda|amzn|goog|googl|meta|nflx|spy|qqq|ibm|intc|amd|orcl|crm|dis|ko|jpm|bac|wmt|xom|brk|baba|tsm|uber": "stock:0.7 ticker:0.7",
  "apple|microsoft|tesla|nvidia|amazon|alphabet|netflix|intel|ford|siemens|volkswagen|coca cola|shopify|stripe|airbnb|samsung|boeing|disney|oracle|salesforce": "company:0.4 stock:0.3",
  "worth|cost|costs|value|valued|how much is|how much are|how much does|how much for|pricing|priced|rate for": "~price:0.6",
  "cheap|cheapest|cheaper|affordable|budget|low cost|lowest price|best price|bargain": "~cheap:0.8 price:0.5 deals:0.4",
  "closing|closes|close prices|closing price|daily prices|daily close|intraday|candlestick|candlesticks|candles|price chart|price movement|performance": "ohlc:0.8 historical:0.5",
  "currency|currencies|fx|forex|exchange rate|exchange rates|conversion rate|fiat|money conversion": "currency:0.9 exchange:0.6",
  "usd|eur|gbp|jpy|chf|nok|sek|dkk|cad|aud|nzd|cny|rmb|inr|brl|mxn|zar|krw|sgd|hkd|pln|dollar|dollars|euro|euros|pound|pounds|sterling|yen|franc|francs|krone|kroner|krona|kronor|rupee|rupees|peso|pesos|reais|yuan|rand|zloty": "currency:0.8 exchange:0.5",
  "revenue|revenues|income|net income|profit|profits|earnings|eps|ebitda|margin|margins|debt|assets|liabilities|cash flow|10k|10q|annual report|quarterly report|financials|financial statements|valuation|ratio|ratios|pe ratio|dividend|dividends": "financials:0.8 fundamentals:0.7",
  "crash|rally|plunge|plunged|selloff|sell off|surge|surged|soar|soared|tank|tanked|slump|rallied|drop|drops|dropped|dropping|fell|fall|falling|jumped|spiked|moved|why is|why did|why are|what moved": "market:0.5 news:0.5",
  "wall street|dow|dow jones|snp500|nasdaq|nyse|ftse|dax|nikkei|indices|market|markets|investors": "market:0.8 stock:0.4",

  // --- crypto
  "btc|bitcoin|bitcoins|eth|ether|ethereum|sol|solana|doge|dogecoin|xrp|ripple|ada|cardano|usdc|usdt|tether|dai|wbtc|weth|matic|polygon|bnb|avax|avalanche|polkadot|ltc|litecoin|shib|pepe|arb|arbitrum|optimism|trx|tron|chainlink": "crypto:0.6 token:0.5",
  "coin|coins|cryptocurrency|cryptocurrencies|crypto|altcoin|altcoins|memecoin|defi|web3|onchain|on-chain|blockchain|chain": "crypto:0.8 blockchain:0.6",
  "wallet|wallets|my address|public key|account address": "wallet:0.8 address:0.5",
  "holding|holdings|hold|holds|balance|balances|funds|portfolio": "balance:0.8 holdings:0.7",
  "tx|txs|txn|txns|transaction|transactions|transfers|transfer|sent|received|activity|payments": "transaction:0.8 transfers:0.7",
  "etherscan|solscan|blockchair|block explorer|polygonscan|bscscan|explorer": "explorer:1 transaction:0.5",
  "mint|minting|erc20|erc-20|erc721|bep20|spl|smart contract|decimals|total supply|supply|ticker symbol|symbol": "token:0.6 contract:0.6 metadata:0.5",
  "gas|gwei|gas fee|gas fees|network fee|network fees|miner fee|tx fee|transaction fee|transaction fees|fee|fees|expensive to send": "fees:0.8 gas:0.7",
  "swap|swapping|swaps|trade|trading|exchange tokens|convert tokens|dex|uniswap|sushiswap|pancakeswap|1inch|jupiter|slippage|liquidity": "swap:0.9 dex:0.6",

  // --- data enrichment
  "employees|employee|headcount|staff|workforce|company size|industry|sector|hq|headquarters|founded|funding|firmographic|firmographics|revenue range": "firmographics:0.8 company:0.6",
  "company|companies|business|businesses|firm|firms|organisation|organization|startup|corporation|corp|inc|ltd|gmbh": "company:0.9",
  "linkedin|job title|title and company|role|position|work history|background|who is behind|who is this person|professional": "profile:0.6 person:0.7 professional:0.6",
  "ceo|cto|cfo|coo|founder|cofounder|co-founder|director|manager|head of|vp|vice president|recruiter|employee at|works at": "person:0.7 contact:0.5",
  "person|people|someone|contact|contacts|lead|leads|prospect|prospects|signup|signups": "person:0.6 contact:0.5",
  "whois|registrar|registrant|registration|registered|expiry|expire|expires|expiration|renewal|who owns|owner|owns|ownership": "whois:0.7 owner:0.7 expiry:0.6",
  "vat|vat id|tax id|tax number|tin|ein|vies|taxpayer|tax": "vat:0.7 tax:0.8",

  // --- email and phone
  "send|deliver|notify|notification|notifications|dispatch|blast|newsletter|mailing": "send:0.8",
  "exists|exist|real|valid|invalid|deliverable|deliverability|bounce|bounces|bouncing|disposable|fake address|catch-all": "verify:0.6 valid:0.6 bounce:0.4",
  "incoming|inbound|received mail|replies|inbox|forwarded|mime|eml|raw email|mailbox": "inbound:0.8 parse:0.4",
  "text message|text messages|texts|texting|txt|otp|verification code|2fa|one time code|one time password|sms|whatsapp": "sms:1 text_message:0.6",
  "carrier|operator|landline|landlines|mobile|cell|cellphone|line type|valid number|phone number|phone numbers": "phone:0.7 carrier:0.5",
  "call|calls|calling|dial|ring|robocall|robocalls|voice call|phone call|telephone|ivr|voice message": "call:0.9 phone:0.5",

  // --- documents and code
  "word document|word doc|word file|docx|doc|odt|rtf|document|documents|file|files": "document:0.7 docx:0.4",
  "md|markdown": "markdown:1",
  "convert|conversion|converter|converting|turn into|change into|transform|export to|from one format": "convert:0.8",
  "invoice|invoices|receipt|receipts|bill|bills|expense|expenses|purchase order|line items|totals|merchant|vendor": "invoice:0.8 receipt:0.7",
  "sign|signed|signing|signature|signatures|countersign|esignature|docusign|hellosign|adobe sign|signer": "signature:0.9 esign:0.7",
  "agreement|agreements|nda|ndas|lease|contract|contracts": "contract:0.8 document:0.4",
  "python|javascript|js|typescript|ts|node|nodejs|ruby|golang|rust|java|c++|bash|shell|script|snippet|snippets|function|program|sql|notebook": "code:0.7",
  "run|running|execute|executing|exec|eval|evaluate|interpret|compile|sandboxed": "execute:0.7 run:0.8",
  "bug|bugs|review|pr|pull request|pull requests|diff|refactor|improve|improvements|code smell|lint|linter|eslint|pylint|code quality": "review:0.8 lint:0.4",
  "github|gitlab|bitbucket|repo|repos|repository|repositories|open source|oss|grep|usages|usage|occurrences|references|codebase": "github:0.6 code:0.5 repositories:0.6",

  // --- security
  "unsafe|malicious|dangerous|suspicious|scam|scams|phishing|virus|viruses|malware|trojan|ransomware|legit|legitimate|sketchy|shady|safe browsing": "malware:0.6 phishing:0.6",
  "tor|vpn|proxy|proxies|botnet|spammer|spammers|blocklist|blacklist|blacklisted|fraud|fraudulent|exit node|datacenter": "reputation:0.6 abuse:0.6",
  "pwned|breach|breaches|breached|leak|leaks|leaked|compromised|exposed|hacked|stolen|dump|dumps": "breach:0.9 leak:0.7",
  "password|passwords|credential|credentials|login|logins": "password:0.8",
  "cve|cves|vulnerability|vulnerabilities|vulnerable|exploit|exploits|security hole|zero day|audit|npm audit|security issue|security issues": "vulnerability:0.9 cve:0.7",
  "npm|pypi|pip|maven|crate|crates|gem|gems|nuget|library|libraries|dependency|dependencies|package version|sdk": "dependencies:0.8 software:0.6",

  // --- commerce
  "shoes|sneakers|trainers|shirt|shirts|jacket|jackets|dress|dresses|jeans|laptop|laptops|headphones|earbuds|airpods|tv|tvs|television|iphone|smartphone|ps5|xbox|console|camera|furniture|sofa|mattress|toys|gift|gifts|phone case|case|cases|gadget|gadgets|appliance|appliances": "products:0.7 shopping:0.6",
  "buy|buying|purchase|shopping|for sale|where to buy|where can i buy|retailer|retailers|ebay|walmart|best buy|in stock|online store|online shops|e-commerce|ecommerce": "shopping:0.8 products:0.7",
  "price drop|dropped|price tracker|price trend|deal|deals|discount|discounts|on sale|sale|lowest ever|was cheaper|cheaper before|price changes": "deals:0.8 price_history:0.6",
  "ship|shipping|postage|courier|couriers|freight|delivery cost|send a parcel|mail a package|parcel rates": "shipping:0.9 postage:0.6",
  "ups|dhl|fedex|usps|royal mail|dpd|gls|postnord|canada post|la poste|tnt|hermes": "courier:0.7 parcel:0.5 shipping:0.4",
  "track|tracking|tracked|where is my|delivered|delivery|shipment|shipments|parcel|parcels|package|packages|order status|in transit|out for delivery": "tracking:0.8 delivery:0.6 parcel:0.5",

  // --- travel and sport
  "flight|flights|fly|flying|plane|planes|airline|airlines|airplane|air ticket|air tickets|plane ticket|plane tickets|airfare|airfares": "flight:1",
  "delayed|delay|delays|late|on time|landed|land|landing|departed|depart|departure|departing|arrival|arrive|arriving|boarding|gate|terminal|cancelled|canceled": "status:0.6 delay:0.7",
  "hotel|hotels|motel|hostel|hostels|inn|bnb|b&b|accommodation|lodging|room|rooms|stay|place to stay|nights|night|resort|check-in|check in": "hotel:0.9 accommodation:0.6",
  "jfk|lax|sfo|lhr|cdg|ams|fra|dxb|hnd|nrt|ord|atl|bos|osl|arn|cph|mad|bcn|fco|muc|zrh|sin|hkg|syd|yyz|ewr|iad|dfw|mia|lgw|stn|dub": "airport:0.6 flight:0.5",
  "lakers|celtics|warriors|knicks|bulls|yankees|dodgers|red sox|arsenal|chelsea|liverpool|man utd|man united|manchester united|man city|tottenham|real madrid|barca|bayern|juventus|psg|ac milan|patriots|cowboys|chiefs|eagles|packers": "sports:0.7 match:0.5 team:0.6",
  "nba|nfl|nhl|mlb|mls|premier league|champions league|bundesliga|la liga|serie a|super bowl|world cup|f1|formula 1|wimbledon|olympics|olympic|ufc|ncaa|euro 2024|grand slam|tour de france": "sports:0.8 league:0.6 match:0.4",
  "game|games|match|matches|fixture|vs|versus|derby|tournament|league|season|playoffs|playoff|race|grand prix|kickoff|kick off|tip off": "match:0.7 sports:0.5",
  "won|win|winner|beat|lost|result|results|score|scores|scored|scoreline|standings|full time|halftime": "score:0.8 results:0.6",
  "play next|next game|next match|upcoming|schedule|schedules|calendar|when do|when does|when is|kickoff time|season schedule": "schedule:0.8 upcoming:0.7",
  "odds|bet|bets|betting|wager|wagers|gamble|gambling|bookie|bookies|bookmaker|bookmakers|sportsbook|moneyline|spread|point spread|handicap|parlay|over under|over/under": "odds:0.9 betting:0.7",

  // --- social, compliance, storage, utilities
  "twitter|x.com|instagram|insta|ig|tiktok|facebook|fb|threads|mastodon|bluesky|reddit|snapchat|pinterest|social|social media|influencer|creator": "social:0.8",
  "followers|following|follower|subscribers|fans|bio|handle|username|profile|profiles|account|accounts": "profile:0.6 followers:0.6 account:0.6",
  "tweet|tweets|post|posts|posting|mentions|mention|mentioning|hashtag|hashtags|buzz|trending|chatter|what people say|talking about|social listening": "posts:0.8 mentions:0.6",
  "sanction|sanctions|sanctioned|watchlist|watch list|watch lists|embargo|money laundering|pep|peps|politically exposed|terrorist|denied party|un list|eu list": "sanctions:0.9 screening:0.6",
  "kyc|identity|id|passport|passports|id card|id cards|national id|driver license|drivers license|driving licence|driving license|selfie|liveness|face match|know your customer|onboarding": "identity:0.8 verify:0.5 passport:0.6",
  "ipfs|pinning|cid|filecoin|arweave|decentralized|decentralised|web3 storage|nft|nfts": "ipfs:0.9 decentralized:0.6",
  "upload|uploads|host|hosting|share|sharing|shareable|download link|public link|public url|cdn|dropbox|wetransfer|file sharing|send a file": "upload:0.7 share:0.7 host:0.6",
  "qr|qrcode|qr code|barcode|barcodes|scannable code": "qr:1",
  "shorten|shortener|short link|short url|tinyurl|bitly|tiny url|tiny link|shortlink|vanity url|redirect": "short_link:0.9 shorten:0.9",
  "holiday|holidays|bank holiday|day off|days off|public holiday|national holiday|federal holiday|christmas|easter|thanksgiving|working days|business days": "holidays:0.9",
  "random|randomness|rng|dice|lottery|raffle|coin flip|coin toss|shuffle|provably|provably fair|verifiable|unbiased|giveaway": "random:0.9 vrf:0.4",

  // --- generic verbs, weakly
  "create|make|produce|generate|generating|build|compose|design": "~generate:0.4",
  "check|checks|checking|validate|validating|validation|verify|verifying|confirm|is it valid": "check:0.6 verify:0.5 validate:0.5",
  "extract|extracting|extraction|pull out|get out|parse|parsing|parser|read": "extract:0.6 parse:0.5",
};

/**
 * Verbs that say little about which capability is meant ("find", "get", "make"). The first meaningful word of a
 * need that is not one of these is its head, and the chosen capability must explain it.
 */
export const GENERIC_WORDS: ReadonlySet<string> = new Set(
  (
    "find get search look lookup check make create generate give show list tell need want help compute calculate " +
    "given having via based across between against stack bunch lot set kind type sort " +
    "compare convert turn change save use do put build let try grab pull fetch retrieve guess handle see know " +
    "figure determine provide return go take start tool api info information data details detail quick simple " +
    "best good top fast easy free way thing something someone anything please"
  ).split(/\s+/),
);

/** Places are payload, not purpose: "weather in Oslo" and "hotel in Oslo" must not be pulled together by "Oslo". */
const PLACE_WORDS = (
  `oslo, bergen, london, paris, berlin, madrid, rome, tokyo, kyoto, osaka, seoul, beijing, shanghai, delhi, new delhi, mumbai, bangalore,
  chicago, boston, denver, seattle, miami, phoenix, houston, dallas, austin, atlanta, detroit, toronto, montreal, vancouver, ottawa, sydney,
  melbourne, brisbane, perth, auckland, dublin, edinburgh, manchester, glasgow, amsterdam, rotterdam, utrecht, brussels, antwerp,
  lisbon, porto, barcelona, valencia, seville, milan, venice, florence, naples, vienna, prague, budapest, warsaw, krakow, zurich, geneva,
  basel, munich, hamburg, frankfurt, cologne, stockholm, gothenburg, copenhagen, helsinki, reykjavik, athens, istanbul, ankara, cairo,
  nairobi, lagos, johannesburg, cape town, dubai, doha, riyadh, tel aviv, jerusalem, singapore, bangkok, jakarta, manila, hanoi, saigon,
  taipei, hong kong, kuala lumpur, sao paulo, rio de janeiro, buenos aires, santiago, lima, bogota, mexico city, cancun, havana,
  san francisco, los angeles, new york, new york city, nyc, la, sf, dc, washington, washington dc, philadelphia, las vegas, orlando,
  portland, minneapolis, nashville, new orleans, honolulu, anchorage, calgary, edmonton, quebec, lyon, marseille, bordeaux, toulouse,
  norway, sweden, denmark, finland, iceland, germany, france, spain, italy, portugal, greece, netherlands, belgium, switzerland,
  austria, poland, ireland, scotland, england, wales, britain, great britain, uk, usa, united states, america, canada, mexico, brazil,
  argentina, chile, peru, colombia, japan, china, india, south korea, korea, australia, new zealand, indonesia, thailand, vietnam,
  philippines, malaysia, egypt, kenya, nigeria, morocco, turkey, israel, russia, ukraine, texas, california, florida, oklahoma,
  queensland, ontario, bavaria, europe, asia, africa, times square, louvre, eiffel tower, big ben, colosseum, downtown, uptown, midtown`
).split(",").map((p) => p.trim().replace(/\s+/g, " ")).filter(Boolean);

export type Expansion = { term: string; weight: number; bigram: boolean };
export type SynonymEntry = { replace: boolean; modifier: boolean; expansions: Expansion[] };

function parse(): Map<string, SynonymEntry> {
  const table = new Map<string, SynonymEntry>();
  for (const [keys, value] of Object.entries(RAW)) {
    const replace = value.startsWith("=");
    const modifier = value.startsWith("~");
    const expansions: Expansion[] = [];
    for (const part of value.replace(/^[=~]/, "").trim().split(/\s+/)) {
      const [term, w] = part.split(":");
      expansions.push({ term: term.replace(/_/g, " "), weight: w === undefined ? 0.8 : Number(w), bigram: term.includes("_") });
    }
    for (const key of keys.split("|")) {
      const k = key.trim().toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();
      if (!k) continue;
      const prev = table.get(k);
      // A key listed in several groups collects all their expansions.
      table.set(
        k,
        prev
          ? { replace: prev.replace || replace, modifier: prev.modifier && modifier, expansions: [...prev.expansions, ...expansions] }
          : { replace, modifier, expansions },
      );
    }
  }
  return table;
}

export const SYNONYMS: ReadonlyMap<string, SynonymEntry> = parse();
export const MAX_PHRASE_WORDS = Math.max(...[...SYNONYMS.keys()].map((k) => k.split(" ").length));
export const PLACES: ReadonlySet<string> = new Set(PLACE_WORDS);
export const MAX_PLACE_WORDS = Math.max(...PLACE_WORDS.map((p) => p.split(" ").length));
/** First words of multi-word keys, so phrase lookups are only attempted where one can start. */
export const PHRASE_STARTS: ReadonlySet<string> = new Set(
  [...SYNONYMS.keys(), ...PLACE_WORDS].filter((k) => k.includes(" ")).map((k) => k.slice(0, k.indexOf(" "))),
);

/**
 * Value tokens from text.ts and what each kind of value suggests about the need. The value itself is also
 * matched, as a bonus, against registry examples that contain the same kind of value: a value is an input.
 */
export const VALUE_EXPANSIONS: Readonly<Record<string, string>> = {
  "@url": "url:1 link:0.6 page:0.5",
  "@email": "email:0.7 address:0.3",
  "@evmaddr": "address:0.6 wallet:0.8 blockchain:0.6",
  "@btcaddr": "address:0.6 wallet:0.8 blockchain:0.6",
  "@hex": "contract:0.6 token:0.5 address:0.4",
  "@cve": "cve:1 vulnerability:0.8",
  "@coords": "coordinates:1 lat:0.6 location:0.6",
  "@ip": "ip:1 address:0.4",
  "@tracking": "tracking:1 parcel:0.5",
  "@street": "address:1 street:0.6",
  "@patentno": "patent:1",
  "@taxid": "vat:0.9 tax:0.7",
  "@phone": "phone:1 number:0.5",
  "@flightno": "flight:1",
  "@hashtag": "hashtag:1 posts:0.5",
  "@handle": "account:0.7 profile:0.6 social:0.6",
  "@ticker": "ticker:1 stock:0.7",
  "@domain": "domain:0.8 website:0.4",
  "@longnum": "tracking:0.5 number:0.5",
  "@version": "version:0.8 software:0.6",
  "@quoted": "",
  "@code": "code:1 snippet:0.6",
};

/** Kinds of values that only hint (a quoted snippet is some text to work on), without being a part of the need. */
export const VALUE_HINTS: Readonly<Record<string, string>> = {
  "@quoted": "text:0.4",
};

export function parseExpansionList(value: string): Expansion[] {
  if (!value) return [];
  return value.split(/\s+/).map((part) => {
    const [term, w] = part.split(":");
    return { term: term.replace(/_/g, " "), weight: w === undefined ? 0.8 : Number(w), bigram: term.includes("_") };
  });
}

/** VALUE_EXPANSIONS and VALUE_HINTS, parsed once. */
export const VALUE_EXPANSION_LISTS: ReadonlyMap<string, Expansion[]> = new Map(
  Object.entries(VALUE_EXPANSIONS).map(([k, v]) => [k, parseExpansionList(v)]),
);
export const VALUE_HINT_LISTS: ReadonlyMap<string, Expansion[]> = new Map(
  Object.entries(VALUE_HINTS).map(([k, v]) => [k, parseExpansionList(v)]),
);
